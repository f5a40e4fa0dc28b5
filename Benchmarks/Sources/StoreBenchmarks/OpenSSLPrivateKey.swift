internal import CBenchmarkOpenSSL

/// A private key decoded by OpenSSL, for the `PKCS7_sign` baseline. The sole owner of its `EVP_PKEY`.
final class OpenSSLPrivateKey {
    private let raw: OpaquePointer  // EVP_PKEY *

    /// Decodes an unencrypted PEM private key.
    init(pemEncoded pem: String) throws {
        let bytes = Array(pem.utf8)
        let key: OpaquePointer? = bytes.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            // A password callback that refuses, so that an encrypted key fails instead of prompting.
            return PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil)
        }
        guard let key else {
            ERR_clear_error()
            throw BenchmarkError("OpenSSL cannot read the PEM private key (\(bytes.count) bytes)")
        }
        raw = key
    }

    deinit {
        EVP_PKEY_free(raw)
    }

    /// Calls `body` with the `EVP_PKEY` pointer, which must not escape.
    func withUnsafeKey<Result>(_ body: (OpaquePointer) throws -> Result) rethrows -> Result {
        try body(raw)
    }
}
