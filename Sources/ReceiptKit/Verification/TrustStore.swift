internal import COpenSSL

/// An OpenSSL certificate store holding only the caller's trusted roots.
final class TrustStore: @unchecked Sendable {
    // @unchecked: sole owner of `raw`, filled in init and never changed afterwards; OpenSSL supports concurrent
    // chain verification against one X509_STORE.
    private let raw: OpaquePointer  // X509_STORE *

    init(roots: [X509Certificate]) throws(ReceiptError) {
        guard let store = X509_STORE_new() else { throw OpenSSLErrorQueue.failure("X509_STORE_new") }
        for root in roots {
            guard root.withUnsafeX509({ X509_STORE_add_cert(store, $0) }) == 1 else {
                X509_STORE_free(store)
                throw OpenSSLErrorQueue.failure("X509_STORE_add_cert")
            }
        }
        raw = store
    }

    deinit {
        X509_STORE_free(raw)
    }

    /// Calls `body` with the X509_STORE pointer, which must not escape.
    func withUnsafeStore<R>(_ body: (OpaquePointer) throws -> R) rethrows -> R {
        try body(raw)
    }
}
