internal import CBenchmarkOpenSSL

/// A certificate decoded by OpenSSL, for the OpenSSL baselines. The sole owner of its `X509`.
final class OpenSSLCertificate {
    private let raw: OpaquePointer  // X509 *

    /// Decodes a DER certificate.
    init(der: [UInt8]) throws {
        let decoded: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return d2i_X509(nil, &cursor, buffer.count)
        }
        guard let decoded else {
            ERR_clear_error()
            throw BenchmarkError("OpenSSL cannot decode a DER certificate of \(der.count) bytes")
        }
        raw = decoded
    }

    deinit {
        X509_free(raw)
    }

    /// Calls `body` with the `X509` pointer, which must not escape.
    func withUnsafeX509<Result>(_ body: (OpaquePointer) throws -> Result) rethrows -> Result {
        try body(raw)
    }
}
