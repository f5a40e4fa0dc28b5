internal import COpenSSL

/// ECDSA P-256 with SHA-256 (JWS `ES256`, RFC 7518 §3.4) through OpenSSL's `EVP_DigestSign` / `EVP_DigestVerify`.
enum ES256 {
    /// SHA-256, fetched from OpenSSL's default provider once: `EVP_sha256()` makes OpenSSL 3 fetch the
    /// implementation again at every `EVP_Digest*Init`, which costs a lookup under a lock per signature.
    /// Never freed (it lives as long as the process, like `EVP_sha256()`'s static object).
    nonisolated(unsafe) private static let sha256: OpaquePointer? = EVP_MD_fetch(nil, "SHA256", nil)
    // nonisolated(unsafe): set once at first use and never changed; OpenSSL allows sharing a fetched EVP_MD.

    /// The DER `ECDSA-Sig-Value` signature of `data` with `key`.
    static func sign(_ data: [UInt8], with key: PrivateKey) throws(ReceiptError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw OpenSSLErrorQueue.failure("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        let digest = sha256 ?? EVP_sha256()
        let result: Result<[UInt8], ReceiptError> = key.withUnsafeKey { pkey in
            guard EVP_DigestSignInit(context, nil, digest, nil, pkey) == 1 else {
                return .failure(OpenSSLErrorQueue.failure("EVP_DigestSignInit"))
            }
            var signature = [UInt8](repeating: 0, count: 80)  // a P-256 ECDSA-Sig-Value is at most 72 bytes
            var length = signature.count
            guard EVP_DigestSign(context, &signature, &length, data, data.count) == 1 else {
                return .failure(OpenSSLErrorQueue.failure("EVP_DigestSign"))
            }
            return .success(Array(signature.prefix(length)))
        }
        return try result.get()
    }

    /// Whether the DER `signature` over `data` verifies with `certificate`'s public key.
    static func verify(_ signature: [UInt8], over data: [UInt8], with certificate: X509Certificate) -> Bool {
        guard let context = EVP_MD_CTX_new() else {
            _ = OpenSSLErrorQueue.drain()
            return false
        }
        defer { EVP_MD_CTX_free(context) }
        let digest = sha256 ?? EVP_sha256()
        let verified = certificate.withUnsafeX509 { x509 -> Bool in
            guard let key = X509_get0_pubkey(x509), EVP_DigestVerifyInit(context, nil, digest, nil, key) == 1 else {
                return false
            }
            return EVP_DigestVerify(context, signature, signature.count, data, data.count) == 1
        }
        if !verified { _ = OpenSSLErrorQueue.drain() }
        return verified
    }

    /// Whether the DER `signature` over `data` verifies with a public key (an `EVP_PKEY`, borrowed).
    static func verify(_ signature: [UInt8], over data: [UInt8], withKey key: OpaquePointer) -> Bool {
        guard let context = EVP_MD_CTX_new() else {
            _ = OpenSSLErrorQueue.drain()
            return false
        }
        defer { EVP_MD_CTX_free(context) }
        let digest = sha256 ?? EVP_sha256()
        let verified =
            EVP_DigestVerifyInit(context, nil, digest, nil, key) == 1
            && EVP_DigestVerify(context, signature, signature.count, data, data.count) == 1
        if !verified { _ = OpenSSLErrorQueue.drain() }
        return verified
    }
}
