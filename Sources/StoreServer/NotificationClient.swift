#if Server
    import COpenSSL
    import Foundation
    #if canImport(Glibc)
        import Glibc
    #endif

    /// POSTs one notification at a time with OpenSSL's HTTP client (`OSSL_HTTP_REQ_CTX`, non-blocking, on a
    /// connection of its own) and tells how it went as Apple's `sendAttemptResult`.
    ///
    /// The status line decides: 200 to 206 is `SUCCESS`, any other status (a redirect included: none is followed) is
    /// `UNSUCCESSFUL_HTTP_RESPONSE_CODE`. Nothing after the headers is read, and at most ``responseLimit`` bytes of the
    /// answer are read from the connection at all (the TLS handshake aside): a response whose headers do not end
    /// within it is `INVALID_RESPONSE`. The whole attempt (connecting, the TLS handshake, sending, the answer's
    /// headers) must end within the timeout, else it is `TIMED_OUT`. An https receiver's certificate is verified
    /// against the system's default CA paths (`SSL_CTX_set_default_verify_paths`, so `SSL_CERT_FILE` and
    /// `SSL_CERT_DIR` apply) and must name the URL's host.
    ///
    /// OpenSSL 3.0 to 3.4 report a 200 by `OSSL_HTTP_REQ_CTX_nbio` returning 1 once the headers are read, and any
    /// other status as an error of `ERR_LIB_HTTP` whose data begins `code=` and the number, except a 301 or 302 to a
    /// POST (`HTTP_R_REDIRECTION_NOT_ENABLED`); that is how the status is read here (checked with OpenSSL 3.0.19).
    final class NotificationClient: @unchecked Sendable {
        /// The most bytes of a receiver's answer read from the connection.
        static let responseLimit = 64 * 1024

        /// The TLS settings of https receivers (`SSL_CTX`, only read once made); nil when OpenSSL could not make it.
        let context: OpaquePointer?
        private let timeout: TimeInterval

        /// Makes a client whose attempts end within `timeout`; an https receiver's certificate must chain to the
        /// system's default CA paths, or with `trustedCertificates` (a PEM file) to one of those instead.
        ///
        /// `@unchecked Sendable`: `context` is configured here and only read afterwards, which OpenSSL allows from
        /// any thread.
        init(timeout: TimeInterval, trustedCertificates: String? = nil) {
            self.timeout = timeout
            context = SSL_CTX_new(TLS_client_method())
            if let context {
                if let trustedCertificates {
                    _ = SSL_CTX_load_verify_locations(context, trustedCertificates, nil)
                } else {
                    _ = SSL_CTX_set_default_verify_paths(context)
                }
                SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
            }
        }

        deinit { SSL_CTX_free(context) }

        /// POSTs `body` (JSON) to `url`; blocks the calling thread until the attempt ends. Returns Apple's
        /// `sendAttemptResult`, or nil when `isCancelled` turned true meanwhile (it is asked at least every 100 ms).
        func post(_ body: String, to url: URL, isCancelled: () -> Bool) -> String? {
            ERR_clear_error()
            defer { ERR_clear_error() }
            guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
                let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
                let host = components.host, !host.isEmpty
            else { return "OTHER" }
            let secure = scheme == "https"
            let port = components.port ?? (secure ? 443 : 80)
            let bracketed = host.contains(":") ? "[\(host)]" : host
            let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
            guard let connection = BIO_new_connect("\(bracketed):\(port)") else { return "OTHER" }
            var top = connection
            defer { BIO_free_all(top) }
            _ = COpenSSL_BIO_set_nbio(connection, 1)
            // Counts the bytes read from the connection, and refuses to read past the limit.
            let count = UnsafeMutablePointer<Int>.allocate(capacity: 1)
            count.initialize(to: 0)
            defer { count.deallocate() }
            BIO_set_callback_arg(connection, UnsafeMutableRawPointer(count).assumingMemoryBound(to: CChar.self))
            BIO_set_callback_ex(connection, Self.countReads)

            while COpenSSL_BIO_do_connect(connection) <= 0 {
                guard COpenSSL_BIO_should_retry(connection) != 0 else { return "NO_RESPONSE" }
                // A connection under way is ready once writable (the BIO tells neither read nor write then).
                if let result = wait(connection, writing: true, deadline: deadline, isCancelled: isCancelled) {
                    return result
                }
            }
            // The request goes out in two writes (headers, then body): without this the body waits for the
            // receiver's delayed acknowledgement of the headers (40 ms on Linux) before the receiver can answer.
            _ = BIO_set_tcp_ndelay(COpenSSL_BIO_get_fd(connection), 1)
            if secure {
                guard let context, let tls = BIO_new_ssl(context, 1) else { return "TLS_ISSUE" }
                top = BIO_push(tls, connection) ?? tls
                if let result = handshake(tls, host: host, deadline: deadline, isCancelled: isCancelled) {
                    return result
                }
                count.pointee = 0  // the handshake aside
            }
            return exchange(body, on: top, url: components, host: bracketed, port: port, count: count) {
                wait(top, deadline: deadline, isCancelled: isCancelled)
            }
        }

        /// Shakes hands over `tls` (a TLS BIO over the connection), verifying that the certificate names `host`: nil
        /// once done, else the attempt's result (nil inside: cancelled).
        func handshake(
            _ tls: OpaquePointer, host: String, deadline: ContinuousClock.Instant, isCancelled: () -> Bool
        ) -> String?? {
            guard let ssl = COpenSSL_BIO_get_ssl(tls) else { return "TLS_ISSUE" }
            if Self.isIPAddress(host) {
                guard X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host) == 1 else { return "TLS_ISSUE" }
            } else {
                guard COpenSSL_SSL_set_tlsext_host_name(ssl, host) == 1, SSL_set1_host(ssl, host) == 1 else {
                    return "TLS_ISSUE"
                }
            }
            while COpenSSL_BIO_do_handshake(tls) <= 0 {
                guard COpenSSL_BIO_should_retry(tls) != 0 else { return "TLS_ISSUE" }
                if let result = wait(tls, deadline: deadline, isCancelled: isCancelled) { return result }
            }
            return nil
        }

        /// Sends the request over `bio` and reads the answer's status and headers.
        private func exchange(
            _ body: String, on bio: OpaquePointer, url: URLComponents, host: String, port: Int,
            count: UnsafeMutablePointer<Int>, wait: () -> String??
        ) -> String? {
            guard let request = OSSL_HTTP_REQ_CTX_new(bio, bio, 0) else { return "OTHER" }
            defer { OSSL_HTTP_REQ_CTX_free(request) }
            var headers: OpaquePointer?
            defer { COpenSSL_sk_CONF_VALUE_free(headers) }
            let defaultPort = url.scheme?.lowercased() == "https" ? 443 : 80
            _ = X509V3_add_value("Host", url.port == nil || port == defaultPort ? host : "\(host):\(port)", &headers)
            let path =
                (url.percentEncodedPath.isEmpty ? "/" : url.percentEncodedPath)
                + (url.percentEncodedQuery.map { "?" + $0 } ?? "")
            guard let content = BIO_new(BIO_s_mem()) else { return "OTHER" }
            defer { BIO_free(content) }
            let bytes = Array(body.utf8)
            guard bytes.withUnsafeBytes({ BIO_write(content, $0.baseAddress, Int32($0.count)) }) == bytes.count else {
                return "OTHER"
            }
            // No expected content type and no ASN.1: the body is left unread. No limit on the announced
            // Content-Length, which is not read either (`size_t.max`: a limit would fail a 200 announcing more).
            guard
                OSSL_HTTP_set1_request(
                    request, path, headers, "application/json", content, nil, 0, size_t.max, 0, 0) == 1
            else { return "OTHER" }
            while true {
                switch OSSL_HTTP_REQ_CTX_nbio(request) {
                case 1: return "SUCCESS"  // a 200; its headers were read
                case -1:
                    if let result = wait() { return result }
                default: return Self.failure(readPastLimit: count.pointee >= Self.responseLimit)
                }
            }
        }

        /// Waits until `bio` can go on, at most 100 ms: nil to go on, or the attempt's result (nil inside: cancelled).
        /// It waits to write when `writing` is true or `bio` wants to write, else to read.
        func wait(
            _ bio: OpaquePointer, writing: Bool = false, deadline: ContinuousClock.Instant, isCancelled: () -> Bool
        ) -> String?? {
            if isCancelled() { return .some(nil) }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return "TIMED_OUT" }
            let milliseconds = min(
                100, max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            var descriptor = pollfd(
                fd: COpenSSL_BIO_get_fd(bio),
                events: Int16(writing || COpenSSL_BIO_should_write(bio) != 0 ? POLLOUT : POLLIN),
                revents: 0)
            _ = poll(&descriptor, 1, Int32(milliseconds))
            return nil
        }

        /// The result of an exchange OpenSSL ended without a 200, from its error queue.
        private static func failure(readPastLimit: Bool) -> String {
            var result: String?
            var flags: Int32 = 0
            var data: UnsafePointer<CChar>?
            while true {
                let error = ERR_get_error_all(nil, nil, nil, &data, &flags)
                guard error != 0 else { break }
                guard result == nil else { continue }
                switch ERR_GET_LIB(error) {
                case ERR_LIB_HTTP:
                    if let data, flags & ERR_TXT_STRING != 0, let status = statusCode(String(cString: data)) {
                        result = (200...206).contains(status) ? "SUCCESS" : "UNSUCCESSFUL_HTTP_RESPONSE_CODE"
                    } else if ERR_GET_REASON(error) == HTTP_R_REDIRECTION_NOT_ENABLED {
                        result = "UNSUCCESSFUL_HTTP_RESPONSE_CODE"  // a 301 or 302 to a POST
                    } else if ERR_GET_REASON(error) == HTTP_R_FAILED_READING_DATA {
                        result = readPastLimit ? "INVALID_RESPONSE" : "PREMATURE_CLOSE"
                    } else {
                        result = "INVALID_RESPONSE"
                    }
                case ERR_LIB_SSL: result = "TLS_ISSUE"
                default: break
                }
            }
            return result ?? (readPastLimit ? "INVALID_RESPONSE" : "PREMATURE_CLOSE")
        }

        /// The status in OpenSSL's error data for a response other than 200: `code=201, reason=Created`.
        static func statusCode(_ data: String) -> Int? {
            guard data.hasPrefix("code=") else { return nil }
            let digits = data.dropFirst(5).prefix { $0.isASCII && $0.isNumber }
            guard digits.count == 3 else { return nil }
            return Int(digits)
        }

        private static func isIPAddress(_ host: String) -> Bool {
            var address = [UInt8](repeating: 0, count: 16)
            return inet_pton(AF_INET, host, &address) == 1 || inet_pton(AF_INET6, host, &address) == 1
        }

        /// The connection's BIO callback: counts the bytes read, and fails a read once ``responseLimit`` were.
        private static let countReads: BIO_callback_fn_ex = { bio, operation, _, _, _, _, result, processed in
            guard let argument = BIO_get_callback_arg(bio) else { return Int(result) }
            let count = UnsafeMutableRawPointer(argument).assumingMemoryBound(to: Int.self)
            let kind = operation & ~BIO_CB_RETURN
            guard kind == BIO_CB_READ || kind == BIO_CB_GETS else { return Int(result) }
            if operation & BIO_CB_RETURN != 0 {
                if result > 0, let processed { count.pointee += processed.pointee }
                return Int(result)
            }
            return count.pointee >= responseLimit ? 0 : Int(result)
        }
    }
#endif
