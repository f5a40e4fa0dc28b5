internal import CBenchmarkOpenSSL

/// The JWS baselines: raw ECDSA P-256 with SHA-256 through `EVP_DigestSign` / `EVP_DigestVerify` (the key, the digest
/// and the context made once and reused), and OpenSSL's chain verification of a leaf and an intermediate to a root.
///
/// The sole owner of its `EVP_PKEY`, `EVP_MD` and `EVP_MD_CTX`.
final class OpenSSLES256 {
    private let key: OpaquePointer  // EVP_PKEY *
    private let digest: OpaquePointer  // EVP_MD *
    private let context: OpaquePointer  // EVP_MD_CTX *

    /// A signer with a private key.
    convenience init(signingWith privateKey: OpenSSLPrivateKey) throws {
        guard let key = privateKey.withUnsafeKey({ EVP_PKEY_dup($0) }) else {
            ERR_clear_error()
            throw BenchmarkError("OpenSSL cannot copy the private key")
        }
        try self.init(key: key)
    }

    /// A verifier with a certificate's public key.
    convenience init(verifyingWith certificate: OpenSSLCertificate) throws {
        guard let key = certificate.withUnsafeX509({ X509_get_pubkey($0) }) else {
            ERR_clear_error()
            throw BenchmarkError("OpenSSL cannot read the certificate's public key")
        }
        try self.init(key: key)
    }

    private init(key: OpaquePointer) throws {
        guard let digest = EVP_MD_fetch(nil, "SHA256", nil), let context = EVP_MD_CTX_new() else {
            EVP_PKEY_free(key)
            ERR_clear_error()
            throw BenchmarkError("OpenSSL cannot fetch SHA-256 or make an EVP_MD_CTX")
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

    /// The DER ECDSA signature of `data`, or nil.
    func sign(_ data: [UInt8]) -> [UInt8]? {
        _ = EVP_MD_CTX_reset(context)
        guard EVP_DigestSignInit(context, nil, digest, nil, key) == 1 else {
            ERR_clear_error()
            return nil
        }
        var signature = [UInt8](repeating: 0, count: 80)
        var length = signature.count
        guard EVP_DigestSign(context, &signature, &length, data, data.count) == 1 else {
            ERR_clear_error()
            return nil
        }
        return Array(signature.prefix(length))
    }

    /// Whether the DER ECDSA `signature` is the key's over `data`.
    func verify(_ signature: [UInt8], over data: [UInt8]) -> Bool {
        _ = EVP_MD_CTX_reset(context)
        guard EVP_DigestVerifyInit(context, nil, digest, nil, key) == 1 else {
            ERR_clear_error()
            return false
        }
        let verified = EVP_DigestVerify(context, signature, signature.count, data, data.count) == 1
        if !verified { ERR_clear_error() }
        return verified
    }

    /// OpenSSL's chain verification as a cold JWS verifier needs it: a new `X509_STORE` holding `root`, `d2i_X509`
    /// of the leaf and the intermediate, `X509_verify_cert` of the leaf with the intermediate untrusted; then the
    /// leaf's key verifies `signature` over `data` (a fresh `EVP_MD_CTX`). True when both pass.
    static func verifyChainAndSignature(
        leaf: [UInt8], intermediate: [UInt8], root: OpenSSLCertificate, signature: [UInt8], over data: [UInt8]
    ) -> Bool {
        guard let store = X509_STORE_new() else { return false }
        defer { X509_STORE_free(store) }
        guard root.withUnsafeX509({ X509_STORE_add_cert(store, $0) }) == 1,
            let leafCertificate = try? OpenSSLCertificate(der: leaf),
            let intermediateCertificate = try? OpenSSLCertificate(der: intermediate),
            let untrusted = CBenchmarkOpenSSL_sk_X509_new_null(), let context = X509_STORE_CTX_new()
        else {
            ERR_clear_error()
            return false
        }
        defer {
            X509_STORE_CTX_free(context)
            CBenchmarkOpenSSL_sk_X509_free(untrusted)
        }
        _ = intermediateCertificate.withUnsafeX509 { CBenchmarkOpenSSL_sk_X509_push(untrusted, $0) }
        let chained = leafCertificate.withUnsafeX509 { x509 -> Bool in
            guard X509_STORE_CTX_init(context, store, x509, untrusted) == 1,
                let parameters = X509_STORE_CTX_get0_param(context)
            else { return false }
            _ = X509_VERIFY_PARAM_set_flags(parameters, UInt(X509_V_FLAG_X509_STRICT))
            return X509_verify_cert(context) == 1
        }
        guard chained, let verifier = try? OpenSSLES256(verifyingWith: leafCertificate) else {
            ERR_clear_error()
            return false
        }
        return verifier.verify(signature, over: data)
    }
}
