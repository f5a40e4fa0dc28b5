#if Server
    import COpenSSL
    import Dispatch
    import Foundation
    import TestSupport
    #if canImport(Glibc)
        import Glibc
    #endif

    /// An https notification endpoint on loopback: a certificate made for the test with the `openssl` command (for
    /// `localhost` only), OpenSSL's TLS over a raw socket, and `200 OK` once the request's body (which ends `"}`) came.
    /// It serves one connection.
    final class TLSReceiver: Sendable {
        let port: UInt16
        /// The receiver's certificate (PEM), which a client must be told to trust.
        let certificatePath: String
        private let listener: Int32
        private let directory: TemporaryDirectory
        private let ended = DispatchSemaphore(value: 0)

        init() throws {
            directory = try TemporaryDirectory()
            certificatePath = directory.file("certificate.pem")
            let keyPath = directory.file("key.pem")
            let openssl = Process()
            openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            openssl.arguments = [
                "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", keyPath, "-out", certificatePath, "-days", "1", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=DNS:localhost",
            ]
            openssl.standardError = FileHandle.nullDevice
            try openssl.run()
            openssl.waitUntilExit()
            guard openssl.terminationStatus == 0 else { throw POSIXError(.ENOENT) }

            let (listener, port) = try LoopbackListener.open()
            self.listener = listener
            self.port = port
            guard let context = SSL_CTX_new(TLS_server_method()),
                SSL_CTX_use_certificate_file(context, certificatePath, SSL_FILETYPE_PEM) == 1,
                SSL_CTX_use_PrivateKey_file(context, keyPath, SSL_FILETYPE_PEM) == 1
            else { throw POSIXError(.EINVAL) }
            let ended = ended
            let server = Server(context: context)
            Thread.detachNewThread {
                defer { ended.signal() }
                server.serve(listener)
            }
        }

        /// The TLS context, used by the serving thread alone.
        private final class Server: @unchecked Sendable {
            let context: OpaquePointer

            init(context: OpaquePointer) { self.context = context }

            deinit { SSL_CTX_free(context) }

            func serve(_ listener: Int32) {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                defer { close(connection) }
                guard let ssl = SSL_new(context) else { return }
                defer { SSL_free(ssl) }
                SSL_set_fd(ssl, connection)
                guard SSL_accept(ssl) == 1 else { return }
                var buffer = [UInt8](repeating: 0, count: 65536)
                var request: [UInt8] = []
                while !request.suffix(2).elementsEqual(Array(#""}"#.utf8)) {
                    let count = buffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
                    guard count > 0 else { return }
                    request += buffer[..<Int(count)]
                }
                let answer = Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".utf8)
                _ = answer.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
                SSL_shutdown(ssl)
            }
        }

        deinit {
            close(listener)
            directory.remove()
        }

        /// Waits until the connection ended (or the listener closed).
        func finished() async {
            let ended = ended
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    ended.wait()
                    continuation.resume()
                }
            }
        }
    }
#endif
