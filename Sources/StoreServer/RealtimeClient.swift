#if Server
    import COpenSSL
    import Foundation
    #if canImport(Glibc)
        import Glibc
    #endif

    /// POSTs a Retention Messaging real-time request to a developer's Get Retention Message endpoint and reads the
    /// answer, status and body, within a deadline: a receiver that never answers, answers slowly or sends more than
    /// ``responseLimit`` bytes costs at most the timeout and that many bytes.
    ///
    /// The connection and the TLS handshake of an `https` URL are ``NotificationClient``'s (non-blocking OpenSSL BIOs,
    /// the certificate verified against the CAs trusted and the URL's host). The request is HTTP/1.0
    /// (`Connection: close`), so the answer is never chunked and ends when the receiver closes the connection or has
    /// sent its `Content-Length`. How an attempt went is Apple's `sendAttemptResult`.
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
        /// The connections and TLS settings.
        private let connections: NotificationClient

        /// Makes a client whose attempts end within `timeout`; an https endpoint's certificate must chain to the
        /// system's default CA paths, or with `trustedCertificates` (a PEM file) to one of those instead.
        init(timeout: TimeInterval, trustedCertificates: String? = nil) {
            self.timeout = timeout
            connections = NotificationClient(timeout: timeout, trustedCertificates: trustedCertificates)
        }

        /// POSTs `body` (JSON) to `url`; blocks the calling thread until the answer is read or the deadline passes.
        func post(_ body: [UInt8], to url: URL) -> Answer {
            ERR_clear_error()
            defer { ERR_clear_error() }
            guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
                let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
                let host = components.host, !host.isEmpty
            else { return Answer(result: "OTHER") }
            let secure = scheme == "https"
            let port = components.port ?? (secure ? 443 : 80)
            let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, timeout) * 1000))
            let bracketed = host.contains(":") ? "[\(host)]" : host
            guard let connection = BIO_new_connect("\(bracketed):\(port)") else { return Answer(result: "OTHER") }
            var top = connection
            defer { BIO_free_all(top) }
            _ = COpenSSL_BIO_set_nbio(connection, 1)
            let wait = { (bio: OpaquePointer, writing: Bool) -> String?? in
                connections.wait(bio, writing: writing, deadline: deadline) { false }
            }
            while COpenSSL_BIO_do_connect(connection) <= 0 {
                guard COpenSSL_BIO_should_retry(connection) != 0 else { return Answer(result: "NO_RESPONSE") }
                if let result = wait(connection, true) { return Answer(result: result ?? "OTHER") }
            }
            if secure {
                guard let context = connections.context, let tls = BIO_new_ssl(context, 1) else {
                    return Answer(result: "TLS_ISSUE")
                }
                top = BIO_push(tls, connection) ?? tls
                if let result = connections.handshake(tls, host: host, deadline: deadline, isCancelled: { false }) {
                    return Answer(result: result ?? "OTHER")
                }
            }
            let path =
                (components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath)
                + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
            let hostHeader = components.port == nil ? bracketed : "\(bracketed):\(port)"
            let request =
                Array(
                    ("POST \(path) HTTP/1.0\r\nHost: \(hostHeader)\r\nContent-Type: application/json\r\n"
                        + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n").utf8) + body
            var sent = 0
            while sent < request.count {
                let count = request.withUnsafeBytes { bytes in
                    BIO_write(top, bytes.baseAddress.map { $0 + sent }, Int32(bytes.count - sent))
                }
                if count > 0 {
                    sent += Int(count)
                } else if COpenSSL_BIO_should_retry(top) != 0 {
                    if let result = wait(top, false) { return Answer(result: result ?? "OTHER") }
                } else {
                    return Answer(result: secure ? "TLS_ISSUE" : "PREMATURE_CLOSE")
                }
            }
            var response: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while Self.expectedLength(of: response).map({ response.count < $0 }) ?? true {
                let count = buffer.withUnsafeMutableBytes { BIO_read(top, $0.baseAddress, Int32($0.count)) }
                if count > 0 {
                    response += buffer[0..<Int(count)]
                    if response.count > Self.responseLimit { return Answer(result: "INVALID_RESPONSE") }
                } else if COpenSSL_BIO_should_retry(top) != 0 {
                    if let result = wait(top, false) { return Answer(result: result ?? "OTHER") }
                } else {
                    break  // closed
                }
            }
            return Self.answer(response)
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
