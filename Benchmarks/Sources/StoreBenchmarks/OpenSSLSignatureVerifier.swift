internal import CBenchmarkOpenSSL

/// The `receipt.verify.warm` floor: one `EVP_DigestVerify` (digest and RSA verification) over the payload, with the
/// signer's public key, the digest implementation and the context made once and reused.
///
/// The sole owner of its `EVP_PKEY`, `EVP_MD` and `EVP_MD_CTX`.
final class OpenSSLSignatureVerifier {
    private let key: OpaquePointer  // EVP_PKEY *
    private let digest: OpaquePointer  // EVP_MD *
    private let context: OpaquePointer  // EVP_MD_CTX *

    /// Creates a verifier for signatures by `certificate`'s key with the digest OpenSSL calls `digestName`
    /// (`SHA256`, `SHA1`).
    init(certificate: OpenSSLCertificate, digestName: String) throws {
        guard let key = certificate.withUnsafeX509({ X509_get_pubkey($0) }) else {
            ERR_clear_error()
            throw BenchmarkError("OpenSSL cannot read the certificate's public key")
        }
        guard let digest = EVP_MD_fetch(nil, digestName, nil) else {
            EVP_PKEY_free(key)
            ERR_clear_error()
            throw BenchmarkError("OpenSSL has no digest named \(digestName)")
        }
        guard let context = EVP_MD_CTX_new() else {
            EVP_MD_free(digest)
            EVP_PKEY_free(key)
            throw BenchmarkError("OpenSSL cannot make an EVP_MD_CTX")
        }
        self.key = key
        self.digest = digest
        self.context = context
    }

    deinit {
        EVP_MD_CTX_free(context)
        EVP_MD_free(digest)
        EVP_PKEY_free(key)
    }

    /// Whether `signature` is the key's signature over `payload`.
    func verify(_ signature: [UInt8], over payload: [UInt8]) -> Bool {
        _ = EVP_MD_CTX_reset(context)
        guard EVP_DigestVerifyInit(context, nil, digest, nil, key) == 1 else {
            ERR_clear_error()
            return false
        }
        let verified = EVP_DigestVerify(context, signature, signature.count, payload, payload.count) == 1
        if !verified { ERR_clear_error() }
        return verified
    }
}
