internal import CBenchmarkOpenSSL

/// The `receipt.issue` baseline: OpenSSL's `PKCS7_sign` with `PKCS7_BINARY | PKCS7_NOATTR` (SHA-256, the key's
/// default, and no signed attributes, as App Store receipts are signed), embedding the leaf and the further
/// certificates, then `i2d_PKCS7` to DER.
///
/// The sole owner of the `STACK_OF(X509)` of further certificates (which does not own them; `extras` does).
final class OpenSSLPKCS7Signer {
    private let leaf: OpenSSLCertificate
    private let extras: [OpenSSLCertificate]
    private let key: OpenSSLPrivateKey
    private let stack: OpaquePointer  // STACK_OF(X509) *

    /// Creates a signer with the leaf certificate, its key, and the certificates to embed after the leaf.
    init(leaf: OpenSSLCertificate, key: OpenSSLPrivateKey, extras: [OpenSSLCertificate]) throws {
        guard let stack = CBenchmarkOpenSSL_sk_X509_new_null() else {
            throw BenchmarkError("OpenSSL cannot make a certificate stack")
        }
        for certificate in extras {
            guard certificate.withUnsafeX509({ CBenchmarkOpenSSL_sk_X509_push(stack, $0) }) > 0 else {
                CBenchmarkOpenSSL_sk_X509_free(stack)
                throw BenchmarkError("OpenSSL cannot add a certificate to a stack")
            }
        }
        self.leaf = leaf
        self.extras = extras
        self.key = key
        self.stack = stack
    }

    deinit {
        CBenchmarkOpenSSL_sk_X509_free(stack)  // the stack does not own its certificates
    }

    /// Signs `payload` and returns the PKCS#7 DER, or `nil` if OpenSSL fails.
    func sign(_ payload: [UInt8]) -> [UInt8]? {
        payload.withUnsafeBytes { buffer -> [UInt8]? in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            let signed = leaf.withUnsafeX509 { certificate in
                key.withUnsafeKey { key in
                    PKCS7_sign(certificate, key, stack, bio, PKCS7_BINARY | PKCS7_NOATTR)
                }
            }
            guard let signed else {
                ERR_clear_error()
                return nil
            }
            defer { PKCS7_free(signed) }
            let length = i2d_PKCS7(signed, nil)
            guard length > 0 else { return nil }
            var der = [UInt8](repeating: 0, count: Int(length))
            let written = der.withUnsafeMutableBufferPointer { output in
                var cursor = output.baseAddress
                return i2d_PKCS7(signed, &cursor)
            }
            return written == length ? der : nil
        }
    }
}
