#if Server
    internal import CMicroHTTPD
    import Synchronization

    /// An HTTP/1.1 server on GNU libmicrohttpd: it reads each request whole (its body bounded), calls a handler on one
    /// of its threads and sends the handler's response.
    ///
    /// The server owns the libmicrohttpd daemon; no C pointer leaves this type. It listens from `init` until ``stop()``
    /// (or deinit), serves each connection on a thread of its own (a handler that takes long holds up no other client),
    /// keeps connections alive between requests and closes idle connections after
    /// ``HTTPServerConfiguration/connectionTimeout`` seconds (the time a handler takes does not count). Every request
    /// is answered, the handler's answer or one of these, with Apple's error body `{"errorCode":4000000,…}`: 413 for
    /// a body larger than ``HTTPServerConfiguration/maximumBodySize`` (announced, of any size, or chunked, answered as
    /// soon as it passes the limit), without keeping it and closing the connection; 414 for a target longer than ``HTTPServerConfiguration/maximumTargetLength`` or with more than
    /// ``HTTPServerConfiguration/maximumQueryParameters`` query parameters; 400 for a target with an encoded control
    /// character (`%00` to `%1F`, `%7F`), a repeated `Authorization` header, a `Content-Length` that is not a number,
    /// `Content-Length` headers that differ, or a `Content-Length` with a `Transfer-Encoding`.
    final class HTTPServer: Sendable {
        /// The memory libmicrohttpd may use for one connection: the request's line and headers, its query
        /// parameters, the response's headers. The configuration's limits on the target keep a request within it.
        static let connectionMemory = 64 * 1024

        /// A request handler: called on the server's threads, possibly several at once.
        typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

        /// The port the server listens on (the one the system picked when the configuration asked for 0).
        let port: UInt16
        /// The configuration it was started with.
        let configuration: HTTPServerConfiguration
        /// The daemon while running; nil once stopped.
        private let daemon: Mutex<Daemon?>
        /// The context passed to the C callbacks, retained until the daemon has stopped.
        private let context: Unmanaged<ServerContext>

        /// Starts listening.
        ///
        /// - Parameters:
        ///   - configuration: where to listen and the limits on clients.
        ///   - handler: makes the response to each request.
        /// - Throws: ``StoreServerError/Code/nonLoopbackAddress`` for an address other than loopback that the
        ///   configuration does not allow, ``StoreServerError/Code/invalidAddress``, or
        ///   ``StoreServerError/Code/cannotListen``.
        init(configuration: HTTPServerConfiguration, handler: @escaping Handler) throws(StoreServerError) {
            guard configuration.isLoopback || configuration.allowsNonLoopback else {
                throw StoreServerError(
                    .nonLoopbackAddress,
                    "\(configuration.host) is not a loopback address; allow it explicitly (--allow-remote) to serve "
                        + "other machines")
            }
            let context = Unmanaged.passRetained(
                ServerContext(
                    handler: handler, maximumBodySize: max(0, configuration.maximumBodySize),
                    maximumTargetLength: max(1, configuration.maximumTargetLength),
                    maximumQueryParameters: max(0, configuration.maximumQueryParameters),
                    connectionTimeout: UInt32(clamping: max(1, configuration.connectionTimeout))))
            var invalidAddress: Int32 = 0
            let started = CMicroHTTPD_start(
                configuration.numericHost, configuration.port, accessHandler, context.toOpaque(), requestCompleted,
                nil, targetReceived, context.toOpaque(), UInt32(clamping: max(1, configuration.connectionTimeout)),
                UInt32(clamping: max(1, configuration.connectionLimit)), Self.connectionMemory, &invalidAddress)
            guard let started else {
                context.release()
                if invalidAddress != 0 {
                    throw StoreServerError(
                        .invalidAddress, "\(configuration.host) is not a numeric IPv4 or IPv6 address (nor localhost)")
                }
                throw StoreServerError(
                    .cannotListen,
                    "cannot listen on \(configuration.numericHost) port \(configuration.port): the port may be taken; "
                        + "choose another, or 0 to let the system pick one")
            }
            self.configuration = configuration
            self.context = context
            self.port = CMicroHTTPD_bound_port(started)
            self.daemon = Mutex(Daemon(pointer: started))
        }

        deinit {
            stop()
        }

        /// Stops listening, waits for the requests being handled to end and closes every connection. Idempotent.
        func stop() {
            let stopped = daemon.withLock { daemon -> Daemon? in
                defer { daemon = nil }
                return daemon
            }
            guard let stopped else { return }
            MHD_stop_daemon(stopped.pointer)
            context.release()
        }

        /// Whether the server is listening.
        var isRunning: Bool {
            daemon.withLock { $0 != nil }
        }
    }

    /// The daemon pointer, held only inside ``HTTPServer``.
    private struct Daemon: @unchecked Sendable {
        // @unchecked: the pointer is used only by HTTPServer.stop, once, under HTTPServer's mutex.
        let pointer: OpaquePointer
    }

    /// What the C callbacks need: the handler and the limits. Immutable.
    private final class ServerContext: Sendable {
        let handler: HTTPServer.Handler
        let maximumBodySize: Int
        let maximumTargetLength: Int
        let maximumQueryParameters: Int
        let connectionTimeout: UInt32

        init(
            handler: @escaping HTTPServer.Handler, maximumBodySize: Int, maximumTargetLength: Int,
            maximumQueryParameters: Int, connectionTimeout: UInt32
        ) {
            self.handler = handler
            self.maximumBodySize = maximumBodySize
            self.maximumTargetLength = maximumTargetLength
            self.maximumQueryParameters = maximumQueryParameters
            self.connectionTimeout = connectionTimeout
        }
    }

    /// One request being read: the answer it gets without the handler, if any; then what came with its headers, and
    /// the body so far. Used by one connection's thread at a time.
    private final class PendingRequest {
        /// The answer decided before the handler: a target refused.
        var refusal: HTTPResponse?
        /// The request, once its headers are in.
        var request: HTTPRequest?
    }

    /// Collects a connection's key-value pairs (headers or query arguments) through libmicrohttpd's iterator.
    private final class PairCollector {
        var pairs: [(String, String)] = []
    }

    /// Told each request's target before libmicrohttpd parses its query: makes the request's state, refusing a target
    /// that is too long, has too many query parameters or encodes a control character. The query of a refused target
    /// is blanked in libmicrohttpd's buffer (its `&` and `=` made `_`) so that parsing it costs nothing: a query of
    /// many parameters would otherwise take more than the connection's memory, and libmicrohttpd could not answer.
    private let targetReceived: CMicroHTTPD_TargetCallback = { contextPointer, target, _ in
        let pending = PendingRequest()
        if let contextPointer, let target {
            let context = Unmanaged<ServerContext>.fromOpaque(contextPointer).takeUnretainedValue()
            pending.refusal = refusal(of: target, context: context)
            if pending.refusal != nil { blankQuery(UnsafeMutablePointer(mutating: target)) }
        }
        return Unmanaged.passRetained(pending).toOpaque()
    }

    /// Why a target is refused, as the response, or nil.
    private func refusal(of target: UnsafePointer<CChar>, context: ServerContext) -> HTTPResponse? {
        let bytes = UnsafeBufferPointer(
            start: UnsafeRawPointer(target).assumingMemoryBound(to: UInt8.self), count: strlen(target))
        if bytes.count > context.maximumTargetLength {
            return refused(414, "The request's target is longer than \(context.maximumTargetLength) bytes.")
        }
        var parameters = 0
        var inQuery = false
        for (offset, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: "?") && !inQuery {
                inQuery = true
                parameters = 1
            } else if byte == UInt8(ascii: "&") && inQuery {
                parameters += 1
            } else if byte < 0x20 || byte == 0x7F {
                return refused(400, "The request's target has a control character.")
            } else if byte == UInt8(ascii: "%"), offset + 2 < bytes.count,
                let high = hexValue(bytes[offset + 1]), let low = hexValue(bytes[offset + 2]),
                high < 2 || (high == 7 && low == 0xF)
            {
                return refused(
                    400,
                    "The request's target encodes a control character (%\(high)\(String(low, radix: 16, uppercase: true)))."
                )
            }
        }
        if parameters > context.maximumQueryParameters {
            return refused(414, "The request has more than \(context.maximumQueryParameters) query parameters.")
        }
        return nil
    }

    private func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Makes every `&` and `=` after the target's `?` a `_`, in place: the query is then one parameter.
    private func blankQuery(_ target: UnsafeMutablePointer<CChar>) {
        var pointer = target
        var inQuery = false
        while pointer.pointee != 0 {
            let byte = UInt8(bitPattern: pointer.pointee)
            if inQuery, byte == UInt8(ascii: "&") || byte == UInt8(ascii: "=") {
                pointer.pointee = CChar(bitPattern: UInt8(ascii: "_"))
            } else if byte == UInt8(ascii: "?") {
                inQuery = true
            }
            pointer += 1
        }
    }

    private let accessHandler: MHD_AccessHandlerCallback = {
        contextPointer, connection, url, method, _, uploadData, uploadDataSize, requestState in
        guard let contextPointer, let connection, let requestState else { return .NO }
        let context = Unmanaged<ServerContext>.fromOpaque(contextPointer).takeUnretainedValue()
        if requestState.pointee == nil {
            requestState.pointee = Unmanaged.passRetained(PendingRequest()).toOpaque()
        }
        // swift-format-ignore: NeverForceUnwrap
        let pending = Unmanaged<PendingRequest>.fromOpaque(requestState.pointee!).takeUnretainedValue()
        if let refusal = pending.refusal {
            return send(refusal, on: connection)
        }
        guard let request = pending.request else {
            // First call: the headers are in.
            let headers = pairs(of: connection, kind: .HEADER_KIND)
            var headerMap: [String: String] = [:]
            headerMap.reserveCapacity(headers.count)
            var authorizations = 0
            var lengths: Set<String> = []
            for (name, value) in headers {
                let lowered = name.lowercased()
                if lowered == "authorization" { authorizations += 1 }
                if lowered == "content-length" { lengths.insert(value) }
                headerMap[lowered] = value
            }
            if authorizations > 1 {
                pending.refusal = refused(400, "The request has more than one Authorization header.")
            } else if lengths.count > 1 {
                pending.refusal = refused(400, "The request has Content-Length headers that differ.")
            } else if !lengths.isEmpty, headerMap["transfer-encoding"] != nil {
                // Which of the two ends the body is ambiguous (the way requests are smuggled): neither is chosen.
                pending.refusal = refused(400, "The request has both Content-Length and Transfer-Encoding.")
            } else if let length = headerMap["content-length"] {
                let digits = length.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } && !length.isEmpty
                if !digits {
                    pending.refusal = refused(400, "The request's Content-Length is not a number.")
                } else if Int(length).map({ $0 > context.maximumBodySize }) ?? true {
                    // Answered at once: libmicrohttpd then discards the body and closes the connection.
                    pending.refusal = tooLarge(context.maximumBodySize)
                }
            }
            if let refusal = pending.refusal { return send(refusal, on: connection) }
            let arguments = pairs(of: connection, kind: .GET_ARGUMENT_KIND)
            var query: [String: [String]] = [:]
            query.reserveCapacity(arguments.count)
            for (name, value) in arguments {
                query[name, default: []].append(value)
            }
            pending.request = HTTPRequest(
                method: method.map { String(cString: $0) } ?? "GET", path: url.map { String(cString: $0) } ?? "/",
                query: query, headers: headerMap, body: [],
                isFromLoopback: CMicroHTTPD_client_is_loopback(connection) != 0)
            return .YES
        }
        if let uploadDataSize, uploadDataSize.pointee > 0 {
            let count = uploadDataSize.pointee
            if request.body.count + count > context.maximumBodySize {
                // Answered at once, as an announced length is, and the connection closed: reading the rest of a
                // chunked body (it may announce a chunk of 2^64 - 1 bytes) would hold the connection's thread.
                // libmicrohttpd takes no queued response while it reads a body, so the answer is written here.
                pending.request?.body = []
                answerBeforeClosing(tooLarge(context.maximumBodySize), on: connection)
                return .NO
            } else if let uploadData {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: count) {
                    pending.request?.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
                }
            }
            uploadDataSize.pointee = 0
            return .YES
        }
        let response = context.handler(request)
        // The connection was busy, not idle, while the handler ran (a long wait, say): it is answered.
        CMicroHTTPD_restart_idle_timer(connection, context.connectionTimeout)
        return send(response, on: connection)
    }

    private let requestCompleted: MHD_RequestCompletedCallback = { _, _, requestState, _ in
        guard let requestState, let statePointer = requestState.pointee else { return }
        Unmanaged<PendingRequest>.fromOpaque(statePointer).release()
        requestState.pointee = nil
    }

    private func pairs(of connection: OpaquePointer, kind: MHD_ValueKind) -> [(String, String)] {
        let collector = PairCollector()
        withExtendedLifetime(collector) {
            _ = MHD_get_connection_values(
                connection, kind,
                { collectorPointer, _, key, value in
                    guard let collectorPointer, let key else { return .YES }
                    let collector = Unmanaged<PairCollector>.fromOpaque(collectorPointer).takeUnretainedValue()
                    collector.pairs.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
                    return .YES
                }, Unmanaged.passUnretained(collector).toOpaque())
        }
        return collector.pairs
    }

    private func tooLarge(_ limit: Int) -> HTTPResponse {
        refused(413, "The body is larger than \(limit) bytes.")
    }

    /// Apple's error body for a request refused before the handler.
    private func refused(_ status: Int, _ reason: String) -> HTTPResponse {
        .json(status, Array(#"{"errorCode":4000000,"errorMessage":"Invalid request. \#(reason)"}"#.utf8))
    }

    /// Writes a whole response, with `Connection: close`, to the connection's socket: for a request answered while
    /// libmicrohttpd reads its body. The caller then returns `.NO`, and libmicrohttpd closes the connection.
    private func answerBeforeClosing(_ response: HTTPResponse, on connection: OpaquePointer) {
        var head = "HTTP/1.1 \(response.status) \(response.status == 413 ? "Content Too Large" : "Bad Request")\r\n"
        for header in response.headers { head += "\(header.name): \(header.value)\r\n" }
        head += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array(head.utf8) + response.body
        _ = bytes.withUnsafeBytes { CMicroHTTPD_answer_before_closing(connection, $0.baseAddress, $0.count) }
    }

    private func send(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let made = response.body.withUnsafeBytes { bytes in
            CMicroHTTPD_response_copying(bytes.count, bytes.baseAddress)
        }
        guard let made else { return .NO }
        defer { MHD_destroy_response(made) }
        for header in response.headers {
            _ = MHD_add_response_header(made, header.name, header.value)
        }
        return MHD_queue_response(connection, UInt32(clamping: response.status), made)
    }
#endif
