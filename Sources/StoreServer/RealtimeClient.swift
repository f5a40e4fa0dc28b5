#if Server
    import Foundation
    #if canImport(Glibc)
        import Glibc
    #endif

    /// POSTs a Retention Messaging real-time request to a developer's Get Retention Message endpoint and reads the
    /// answer, status and body, within a deadline: a receiver that never answers, answers slowly or sends more than
    /// ``responseLimit`` bytes costs at most the timeout and that many bytes.
    ///
    /// The request is HTTP/1.0 (`Connection: close`), so the answer is never chunked and ends when the receiver closes
    /// the connection or has sent its `Content-Length`. Only `http` URLs are reached; an `https` URL fails as
    /// `TLS_ISSUE` (docs/decisions.md 102). How an attempt went is Apple's `sendAttemptResult`.
    struct RealtimeClient: Sendable {
        /// The most bytes of an answer read.
        static let responseLimit = 64 * 1024

        /// What a request got.
        struct Answer: Sendable, Equatable {
            /// Apple's `sendAttemptResult`: `SUCCESS` for a status 200 to 206, else why it failed.
            var result: String
            /// The status, when one was read.
            var status: Int?
            /// The body, when the status was read.
            var body: [UInt8] = []
        }

        /// How long an attempt may take, in seconds.
        let timeout: TimeInterval

        /// POSTs `body` (JSON) to `url`; blocks the calling thread until the answer is read or the deadline passes.
        func post(_ body: [UInt8], to url: URL) -> Answer {
            guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
                let scheme = components.scheme?.lowercased(), let host = components.host, !host.isEmpty
            else { return Answer(result: "OTHER") }
            guard scheme == "http" else { return Answer(result: scheme == "https" ? "TLS_ISSUE" : "OTHER") }
            let port = components.port ?? 80
            let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, timeout) * 1000))
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
                return Answer(result: "NO_RESPONSE")
            }
            defer { freeaddrinfo(list) }
            let socket = Glibc.socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
            guard socket >= 0 else { return Answer(result: "SOCKET_ISSUE") }
            defer { close(socket) }
            _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
            if connect(socket, first.pointee.ai_addr, first.pointee.ai_addrlen) != 0 {
                guard errno == EINPROGRESS else { return Answer(result: "NO_RESPONSE") }
                guard Self.wait(socket, for: POLLOUT, until: deadline) else { return Answer(result: "TIMED_OUT") }
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                guard getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &length) == 0, error == 0 else {
                    return Answer(result: "NO_RESPONSE")
                }
            }
            let bracketed = host.contains(":") ? "[\(host)]" : host
            let path =
                (components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath)
                + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
            let head =
                "POST \(path) HTTP/1.0\r\nHost: \(components.port == nil ? bracketed : "\(bracketed):\(port)")\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
            let request = Array(head.utf8) + body
            var sent = 0
            while sent < request.count {
                let count = request.withUnsafeBytes { bytes in
                    send(socket, bytes.baseAddress.map { $0 + sent }, bytes.count - sent, Int32(MSG_NOSIGNAL))
                }
                if count > 0 {
                    sent += count
                } else if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                    guard Self.wait(socket, for: POLLOUT, until: deadline) else { return Answer(result: "TIMED_OUT") }
                } else {
                    return Answer(result: "PREMATURE_CLOSE")
                }
            }
            var response: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while Self.expectedLength(of: response).map({ response.count < $0 }) ?? true {
                let count = recv(socket, &buffer, buffer.count, 0)
                if count > 0 {
                    response += buffer[0..<count]
                    if response.count > Self.responseLimit { return Answer(result: "INVALID_RESPONSE") }
                } else if count == 0 {
                    break
                } else if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                    guard Self.wait(socket, for: POLLIN, until: deadline) else { return Answer(result: "TIMED_OUT") }
                } else {
                    return Answer(result: "PREMATURE_CLOSE")
                }
            }
            return Self.answer(response)
        }

        /// Waits until `socket` is ready for `events`; false once the deadline passed.
        private static func wait(_ socket: Int32, for events: Int32, until deadline: ContinuousClock.Instant) -> Bool {
            while true {
                let left = deadline - ContinuousClock.now
                guard left > .zero else { return false }
                let milliseconds = max(
                    1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
                var descriptor = pollfd(fd: socket, events: Int16(events), revents: 0)
                let ready = poll(&descriptor, 1, Int32(min(milliseconds, 1000)))
                if ready > 0 { return true }
                if ready < 0, errno != EINTR { return true }  // the next call reports the error
            }
        }

        /// Where the head of a response ends (after its blank line), if it has ended.
        private static func headEnd(_ response: [UInt8]) -> Int? {
            guard response.count >= 4 else { return nil }
            for index in 0...(response.count - 4)
            where response[index] == 13 && response[index + 1] == 10 && response[index + 2] == 13
                && response[index + 3] == 10
            {
                return index + 4
            }
            return nil
        }

        /// The whole length of a response whose head announced a `Content-Length`, or nil (read until closed).
        private static func expectedLength(of response: [UInt8]) -> Int? {
            guard let end = headEnd(response) else { return nil }
            let head = String(decoding: response[0..<end], as: UTF8.self)
            for line in head.split(separator: "\r\n").dropFirst() {
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, parts[0].lowercased() == "content-length" else { continue }
                if let length = Int(parts[1].trimmingCharacters(in: .whitespaces)), length >= 0 {
                    return end + length
                }
            }
            return nil
        }

        /// The answer a whole response (read until closed, or its `Content-Length`) makes.
        private static func answer(_ response: [UInt8]) -> Answer {
            guard let end = headEnd(response) else {
                return Answer(result: response.isEmpty ? "NO_RESPONSE" : "PREMATURE_CLOSE")
            }
            let head = String(decoding: response[0..<end], as: UTF8.self)
            let statusLine = head.prefix { $0 != "\r" }.split(separator: " ")
            guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), statusLine[1].count == 3,
                let status = Int(statusLine[1])
            else { return Answer(result: "INVALID_RESPONSE") }
            if let expected = expectedLength(of: response), response.count < expected {
                return Answer(result: "PREMATURE_CLOSE", status: status)
            }
            let body = Array(response[end..<(expectedLength(of: response) ?? response.count)])
            return Answer(
                result: (200...206).contains(status) ? "SUCCESS" : "UNSUCCESSFUL_HTTP_RESPONSE_CODE", status: status,
                body: body)
        }
    }
#endif
