#if Server
    import Foundation
    #if canImport(Glibc)
        import Glibc
    #endif

    /// A TCP connection to 127.0.0.1 made by hand, to send what no well-behaved client sends: half a request, an
    /// oversized body, bytes that are not HTTP.
    final class RawSocket {
        private let descriptor: Int32

        init(port: UInt16) throws {
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { throw POSIXError(.EIO) }
            var timeout = timeval(tv_sec: 20, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            // No close here: the object is whole, so throwing runs deinit, which closes the descriptor. Closing it
            // twice would close whatever a parallel test opened under the same number in between (a server's
            // listening socket, say).
            guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        }

        deinit { if descriptor >= 0 { close(descriptor) } }

        /// Sends bytes; returns false when the peer has closed.
        @discardableResult
        func send(_ bytes: [UInt8]) -> Bool {
            bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                == bytes.count
        }

        /// Sends text.
        @discardableResult
        func send(_ text: String) -> Bool { send(Array(text.utf8)) }

        /// Reads until the peer closes or `limit` bytes came (bounded by the receive timeout).
        func readAll(limit: Int = 1 << 20) -> [UInt8] {
            var result: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while result.count < limit {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { break }
                result.append(contentsOf: buffer.prefix(count))
                if String(decoding: result, as: UTF8.self).contains("\r\n\r\n"),
                    let text = String(validating: result, as: UTF8.self),
                    Self.isComplete(text)
                {
                    break
                }
            }
            return result
        }

        /// Whether a response has all of its body (by Content-Length).
        private static func isComplete(_ text: String) -> Bool {
            guard let split = text.range(of: "\r\n\r\n") else { return false }
            let head = text[..<split.lowerBound].lowercased()
            guard let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
                let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
            else { return false }
            return text.utf8.count - text.utf8.distance(from: text.utf8.startIndex, to: split.upperBound) >= length
        }
    }
#endif
