internal import CBenchmarkOpenSSL
import Foundation

/// The `receipt.verify.cold` baseline: OpenSSL's own PKCS#7 verification (`d2i_PKCS7` + `PKCS7_verify`, which decodes
/// every embedded certificate, builds and checks the chain to the trusted root, and checks the signature over the
/// content), with an `X509_STORE` that holds one trusted root.
///
/// The sole owner of its shared `X509_STORE`; the stores it makes per receipt live only inside one call.
final class OpenSSLPKCS7Verifier {
    private let root: OpenSSLCertificate
    private let seconds: Int?
    private let sharedStore: OpaquePointer  // X509_STORE *

    /// Creates a verifier trusting `root`, checking the chain at `date` (at the current time when `nil`).
    init(root: OpenSSLCertificate, at date: Date? = nil) throws {
        self.root = root
        self.seconds = date.map { Int($0.timeIntervalSince1970) }
        guard let store = Self.makeStore(root: root, seconds: seconds) else {
            ERR_clear_error()
            throw BenchmarkError("OpenSSL cannot make an X509_STORE")
        }
        sharedStore = store
    }

    deinit {
        X509_STORE_free(sharedStore)
    }

    /// Verifies as a fresh verifier does: a new `X509_STORE` with the root, `d2i_PKCS7`, `PKCS7_verify`.
    func verifyWithNewStore(_ receipt: [UInt8]) -> Bool {
        guard let store = Self.makeStore(root: root, seconds: seconds) else {
            ERR_clear_error()
            return false
        }
        defer { X509_STORE_free(store) }
        return Self.verify(receipt, store: store)
    }

    /// Verifies with the store made once: `d2i_PKCS7`, `PKCS7_verify` (a server verifying fresh receipts).
    func verifyWithSharedStore(_ receipt: [UInt8]) -> Bool {
        Self.verify(receipt, store: sharedStore)
    }

    private static func makeStore(root: OpenSSLCertificate, seconds: Int?) -> OpaquePointer? {
        guard let store = X509_STORE_new() else { return nil }
        guard root.withUnsafeX509({ X509_STORE_add_cert(store, $0) }) == 1 else {
            X509_STORE_free(store)
            return nil
        }
        if let seconds, let parameters = X509_STORE_get0_param(store) {
            X509_VERIFY_PARAM_set_time(parameters, time_t(seconds))
        }
        return store
    }

    private static func verify(_ receipt: [UInt8], store: OpaquePointer) -> Bool {
        receipt.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            guard let pkcs7 = d2i_PKCS7(nil, &cursor, buffer.count) else {
                ERR_clear_error()
                return false
            }
            defer { PKCS7_free(pkcs7) }
            let verified = PKCS7_verify(pkcs7, nil, store, nil, nil, 0) == 1
            if !verified { ERR_clear_error() }
            return verified
        }
    }
}
