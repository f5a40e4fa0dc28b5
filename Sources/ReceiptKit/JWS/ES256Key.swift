internal import COpenSSL

/// An ECDSA P-256 key pair for ES256 JSON Web Tokens: an App Store Connect In-App Purchase key (`.p8`, PKCS#8 PEM),
/// as a backend signs its App Store Server API tokens with it and a server checks them.
///
/// ```swift
/// let key = try ES256Key(pemEncoded: String(decoding: p8Bytes, as: UTF8.self))
/// let signature = try key.sign(Array("header.payload".utf8))      // R‖S, 64 bytes
/// key.isValidSignature(signature, for: Array("header.payload".utf8))  // true
/// ```
public struct ES256Key: Sendable {
    /// The key.
    private let key: PrivateKey
    /// The PEM it was read from or written as (PKCS#8 `BEGIN PRIVATE KEY` for generated keys).
    public let pemEncoded: String

    /// Reads an unencrypted PEM private key (PKCS#8 `BEGIN PRIVATE KEY`, as App Store Connect's `.p8` files hold, or
    /// `BEGIN EC PRIVATE KEY`).
    ///
    /// - Throws: ``ReceiptError/Code/privateKeyUnreadable``, or ``ReceiptError/Code/invalidSigningIdentity`` for a
    ///   key that is not ECDSA P-256.
    public init(pemEncoded pem: String) throws(ReceiptError) {
        let key = try PrivateKey(pemEncoded: pem)
        guard key.isEC256 else {
            throw ReceiptError(.invalidSigningIdentity, "ES256 needs an ECDSA P-256 key; this key is another kind")
        }
        self.key = key
        self.pemEncoded = pem
    }

    /// Makes a new random P-256 key with OpenSSL (for tests: a `.p8` file that no one else has).
    ///
    /// - Throws: ``ReceiptError/Code/openSSLFailure`` if OpenSSL cannot make or write it.
    public static func generate() throws(ReceiptError) -> ES256Key {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
            throw OpenSSLErrorQueue.failure("EVP_PKEY_CTX_new_from_name")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_group_name(context, "P-256") == 1 else {
            throw OpenSSLErrorQueue.failure("EVP_PKEY_keygen_init")
        }
        var generated: OpaquePointer?
        guard EVP_PKEY_generate(context, &generated) == 1, let generated else {
            throw OpenSSLErrorQueue.failure("EVP_PKEY_generate")
        }
        defer { EVP_PKEY_free(generated) }
        guard let bio = BIO_new(BIO_s_mem()) else { throw OpenSSLErrorQueue.failure("BIO_new") }
        defer { BIO_free(bio) }
        guard PEM_write_bio_PrivateKey(bio, generated, nil, nil, 0, nil, nil) == 1 else {
            throw OpenSSLErrorQueue.failure("PEM_write_bio_PrivateKey")
        }
        var start: UnsafeMutablePointer<CChar>?
        let length = COpenSSL_BIO_get_mem_data(bio, &start)
        guard length > 0, let start else { throw OpenSSLErrorQueue.failure("BIO_get_mem_data") }
        let pem = start.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
        return try ES256Key(pemEncoded: pem)
    }

    /// The key's public half as PEM (`BEGIN PUBLIC KEY`, SubjectPublicKeyInfo), as ``OfferVerificationKey`` reads it.
    ///
    /// - Throws: ``ReceiptError/Code/openSSLFailure`` if OpenSSL cannot write it.
    public func publicKeyPEM() throws(ReceiptError) -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { throw OpenSSLErrorQueue.failure("BIO_new") }
        defer { BIO_free(bio) }
        let written = key.withUnsafeKey { PEM_write_bio_PUBKEY(bio, $0) == 1 }
        guard written else { throw OpenSSLErrorQueue.failure("PEM_write_bio_PUBKEY") }
        var start: UnsafeMutablePointer<CChar>?
        let length = COpenSSL_BIO_get_mem_data(bio, &start)
        guard length > 0, let start else { throw OpenSSLErrorQueue.failure("BIO_get_mem_data") }
        return start.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }

    /// Signs `message` with ES256: the raw R‖S signature (64 bytes) a JWS or JWT carries.
    ///
    /// - Throws: ``ReceiptError/Code/openSSLFailure`` if OpenSSL cannot sign.
    public func sign(_ message: [UInt8]) throws(ReceiptError) -> [UInt8] {
        let der = try ES256.sign(message, with: key)
        guard let raw = ECDSASignature.raw(fromDER: der) else {
            throw ReceiptError(.openSSLFailure, "OpenSSL returned an ECDSA signature that is not P-256")
        }
        return raw
    }

    /// Whether `signature` (raw R‖S, 64 bytes) is this key's ES256 signature of `message`.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        guard let der = ECDSASignature.der(fromRaw: signature), let context = EVP_MD_CTX_new() else {
            _ = OpenSSLErrorQueue.drain()
            return false
        }
        defer { EVP_MD_CTX_free(context) }
        let verified = key.withUnsafeKey { pkey in
            EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, pkey) == 1
                && EVP_DigestVerify(context, der, der.count, message, message.count) == 1
        }
        if !verified { _ = OpenSSLErrorQueue.drain() }
        return verified
    }
}
