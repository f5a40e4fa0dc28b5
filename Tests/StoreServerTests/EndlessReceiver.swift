#if Server
    import Dispatch
    import Foundation
    import Synchronization
    import TestSupport
    #if canImport(Glibc)
        import Glibc
    #endif

    /// A notification endpoint written on a raw socket: it answers `head` (by default `200 OK` announcing a body of a
    /// terabyte), then writes `filler` over and over until the sender stops reading or closes, or `limit` bytes of it
    /// went out, then closes. It serves one connection. What it managed to write bounds what the sender read: the
    /// sender read all of it but what the two sockets' buffers still held.
    final class EndlessReceiver: Sendable {
        let port: UInt16
        private let listener: Int32
        private let ended = DispatchSemaphore(value: 0)
        private let box = Box()

        private final class Box: Sendable {
            let written = Mutex(0)
        }

        init(
            head: String = "HTTP/1.1 200 OK\r\nContent-Length: 1000000000000\r\n\r\n",
            filler: String = String(repeating: "a", count: 65536), limit: Int
        ) throws {
            let (listener, port) = try LoopbackListener.open()
            self.listener = listener
            self.port = port
            let box = box
            let ended = ended
            Thread.detachNewThread {
                defer { ended.signal() }
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                defer { close(connection) }
                // The whole request, whose body ends `"}`, so that closing leaves nothing unread (which would reset
                // the connection under the answer).
                var buffer = [UInt8](repeating: 0, count: 65536)
                var request: [UInt8] = []
                while !request.suffix(2).elementsEqual(Array(#""}"#.utf8)) {
                    let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
                    guard count > 0 else { break }
                    request += buffer[..<count]
                }
                let head = Array(head.utf8)
                _ = head.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                var chunk = Array(filler.utf8)
                while !chunk.isEmpty, chunk.count < 65536 { chunk += Array(filler.utf8) }
                var total = 0
                while !chunk.isEmpty, total < limit {
                    let sent = chunk.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    guard sent > 0 else { break }
                    total += sent
                }
                box.written.withLock { $0 = total }
            }
        }

        deinit { close(listener) }

        /// Waits until the connection ended; returns how many bytes of filler were written.
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
