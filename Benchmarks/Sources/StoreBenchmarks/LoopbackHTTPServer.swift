#if Server
    import CBenchmarkMicroHTTPD

    /// libmicrohttpd alone on a loopback port: it answers every request 200 with an empty body and counts the POSTs.
    /// The receiver of `server.notifications`.
    final class LoopbackHTTPServer: @unchecked Sendable {
        // @unchecked: the pointer is set in init and freed in deinit; the C side counts with an atomic.
        private let server: UnsafeMutableRawPointer

        /// Starts listening on 127.0.0.1, on a port the system picks; nil if it cannot.
        init?() {
            guard let server = CBenchmarkHTTP_start() else { return nil }
            self.server = server
        }

        deinit { CBenchmarkHTTP_stop(server) }

        /// The port listened on.
        var port: UInt16 { CBenchmarkHTTP_port(server) }

        /// How many POST requests have been answered.
        var posts: Int { CBenchmarkHTTP_posts(server) }
    }
#endif
