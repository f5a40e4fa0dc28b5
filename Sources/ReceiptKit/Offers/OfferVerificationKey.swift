internal import COpenSSL

/// A subscription-offer key's public half (App Store Connect's in-app purchase key, P-256): it checks the signature
/// of a promotional offer. Immutable; safe to share between threads.
public final class OfferVerificationKey: @unchecked Sendable {
    // @unchecked: sole owner of `raw`, never mutated after init; each verification makes its own context.
    private let raw: OpaquePointer  // EVP_PKEY *

    /// Decodes a PEM public key (`BEGIN PUBLIC KEY`, SubjectPublicKeyInfo) on the P-256 curve.
    ///
    /// - Throws: `publicKeyUnreadable` if the text is not such a key.
    public init(pemEncoded pem: String) throws(ReceiptError) {
        var bytes = Array(pem.utf8)
        if bytes.isEmpty || bytes.count > Int(Int32.max) { bytes = [0] }
        let key: OpaquePointer? = bytes.withUnsafeBytes { raw in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return nil }  // borrows `raw`
            defer { BIO_free(bio) }
            return PEM_read_bio_PUBKEY(bio, nil, nil, nil)
        }
        guard let key else {
            throw ReceiptError(
                .publicKeyUnreadable, "cannot read a PEM public key (BEGIN PUBLIC KEY): \(OpenSSLErrorQueue.drain())")
        }
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC, EVP_PKEY_get_bits(key) == 256 else {
            EVP_PKEY_free(key)
            throw ReceiptError(.publicKeyUnreadable, "the public key is not an ECDSA P-256 key")
        }
        self.raw = key
    }

    deinit {
        EVP_PKEY_free(raw)
    }

    /// Whether a DER ECDSA signature over `message` (SHA-256) verifies with this key. Garbage is `false`.
    public func verifies(_ signature: [UInt8], over message: [UInt8]) -> Bool {
        ES256.verify(signature, over: message, withKey: raw)
    }

    /// Whether a raw R‖S ES256 signature (64 bytes, as a JWS carries it) over `message` verifies with this key.
    /// Garbage is `false`.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        guard let der = ECDSASignature.der(fromRaw: signature) else { return false }
        return verifies(der, over: message)
    }
}
