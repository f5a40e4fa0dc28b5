#if Server
    import Dispatch
    import Foundation
    import Synchronization
    #if canImport(Glibc)
        import Glibc
    #endif

    /// A notification endpoint that answers `200 OK` announcing a body of a terabyte: it writes until the sender stops
    /// reading or `limit` bytes went out, then closes. It serves one connection.
    final class EndlessReceiver: Sendable {
        let port: UInt16
        private let listener: Int32
        private let ended = DispatchSemaphore(value: 0)
        private let box = Box()

        private final class Box: Sendable {
            let written = Mutex(0)
        }

        init(limit: Int) throws {
            let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            self.listener = listener
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
            }
            guard bound == 0, listen(listener, 4) == 0 else { throw POSIXError(.EADDRINUSE) }
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
            }
            port = UInt16(bigEndian: address.sin_port)
            let box = box
            let ended = ended
            Thread.detachNewThread {
                defer { ended.signal() }
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                defer { close(connection) }
                var buffer = [UInt8](repeating: 0, count: 65536)
                _ = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
                let head = Array("HTTP/1.1 200 OK\r\nContent-Length: 1000000000000\r\n\r\n".utf8)
                _ = head.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                let chunk = [UInt8](repeating: 0x61, count: 65536)
                var total = 0
                while total < limit {
                    let sent = chunk.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    guard sent > 0 else { break }
                    total += sent
                }
                box.written.withLock { $0 = total }
            }
        }

        deinit { close(listener) }

        /// Waits until the connection ended; returns how many bytes of body were written.
        func bodyWritten() async -> Int {
            let ended = ended
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    ended.wait()
                    continuation.resume()
                }
            }
            return box.written.withLock { $0 }
        }

        // swift-format-ignore: NeverForceUnwrap
        var url: URL { URL(string: "http://127.0.0.1:\(port)/notifications")! }
    }
#endif
