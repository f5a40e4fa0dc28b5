internal import COpenSSL

/// A private key decoded by OpenSSL. Immutable; safe to share between threads.
final class PrivateKey: @unchecked Sendable {
    // @unchecked: sole owner of `raw`, never mutated after init; each signing operation makes its own context, and
    // OpenSSL keys may be used by several threads at once.
    private let raw: OpaquePointer  // EVP_PKEY *

    /// Decodes a PEM private key (PKCS#8 `BEGIN PRIVATE KEY` or `BEGIN RSA PRIVATE KEY`), unencrypted.
    init(pemEncoded pem: String) throws(ReceiptError) {
        var bytes = Array(pem.utf8)
        if bytes.isEmpty || bytes.count > Int(Int32.max) { bytes = [0] }
        let key: OpaquePointer? = bytes.withUnsafeBytes { raw in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return nil }  // borrows `raw`
            defer { BIO_free(bio) }
            // A password callback that refuses, so an encrypted key fails instead of prompting on the terminal.
            return PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil)
        }
        guard let key else {
            throw ReceiptError(
                .privateKeyUnreadable, "cannot read an unencrypted PEM private key: \(OpenSSLErrorQueue.drain())")
        }
        self.raw = key
    }

    deinit {
        EVP_PKEY_free(raw)
    }

    /// Whether this is an RSA key (receipts are signed with RSA).
    var isRSA: Bool {
        EVP_PKEY_get_base_id(raw) == EVP_PKEY_RSA
    }

    /// Whether this is an ECDSA key on a 256-bit curve (JWS are signed with P-256).
    var isEC256: Bool {
        EVP_PKEY_get_base_id(raw) == EVP_PKEY_EC && EVP_PKEY_get_bits(raw) == 256
    }

    /// Calls `body` with the EVP_PKEY pointer, which must not escape.
    func withUnsafeKey<R>(_ body: (OpaquePointer) throws -> R) rethrows -> R {
        try body(raw)
    }

    /// Signs `data` (RSA PKCS#1 v1.5 for RSA keys, deterministic; a DER `ECDSA-Sig-Value` for EC keys).
    func sign(_ data: UnsafeRawBufferPointer, digest: ReceiptDigestAlgorithm) throws(ReceiptError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw OpenSSLErrorQueue.failure("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, digest.evpMD, nil, raw) == 1 else {
            throw OpenSSLErrorQueue.failure("EVP_DigestSignInit")
        }
        let input = data.baseAddress?.assumingMemoryBound(to: UInt8.self)
        var length = 0
        guard EVP_DigestSign(context, nil, &length, input, data.count) == 1 else {
            throw OpenSSLErrorQueue.failure("EVP_DigestSign")
        }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, input, data.count) == 1 else {
            throw OpenSSLErrorQueue.failure("EVP_DigestSign")
        }
        return Array(signature.prefix(length))
    }
}
