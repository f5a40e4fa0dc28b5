#if Server
    internal import CMicroHTTPD
    import Synchronization

    /// An HTTP/1.1 server on GNU libmicrohttpd: it reads each request whole (its body bounded), calls a handler on one
    /// of its threads and sends the handler's response.
    ///
    /// The server owns the libmicrohttpd daemon; no C pointer leaves this type. It listens from `init` until ``stop()``
    /// (or deinit), keeps connections alive between requests, closes idle connections after
    /// ``HTTPServerConfiguration/connectionTimeout`` seconds, and answers a body larger than
    /// ``HTTPServerConfiguration/maximumBodySize`` with 413 without keeping it.
    package final class HTTPServer: Sendable {
        /// A request handler: called on the server's threads, possibly several at once.
        package typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

        /// The port the server listens on (the one the system picked when the configuration asked for 0).
        package let port: UInt16
        /// The configuration it was started with.
        package let configuration: HTTPServerConfiguration
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
        package init(configuration: HTTPServerConfiguration, handler: @escaping Handler) throws(StoreServerError) {
            guard configuration.isLoopback || configuration.allowsNonLoopback else {
                throw StoreServerError(
                    .nonLoopbackAddress,
                    "\(configuration.host) is not a loopback address; allow it explicitly (--allow-remote) to serve "
                        + "other machines")
            }
            let context = Unmanaged.passRetained(
                ServerContext(handler: handler, maximumBodySize: max(0, configuration.maximumBodySize)))
            var invalidAddress: Int32 = 0
            let started = CMicroHTTPD_start(
                configuration.numericHost, configuration.port, accessHandler, context.toOpaque(), requestCompleted,
                nil, UInt32(clamping: max(1, configuration.connectionTimeout)),
                UInt32(clamping: max(1, configuration.connectionLimit)),
                UInt32(clamping: max(1, configuration.threads)),
                64 * 1024, &invalidAddress)
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
        package func stop() {
            let stopped = daemon.withLock { daemon -> Daemon? in
                defer { daemon = nil }
                return daemon
            }
            guard let stopped else { return }
            MHD_stop_daemon(stopped.pointer)
            context.release()
        }

        /// Whether the server is listening.
        package var isRunning: Bool {
            daemon.withLock { $0 != nil }
        }
    }

    /// The daemon pointer, held only inside ``HTTPServer``.
    private struct Daemon: @unchecked Sendable {
        // @unchecked: the pointer is used only by HTTPServer.stop, once, under HTTPServer's mutex.
        let pointer: OpaquePointer
    }

    /// What the C callbacks need: the handler and the body limit. Immutable.
    private final class ServerContext: Sendable {
        let handler: HTTPServer.Handler
        let maximumBodySize: Int

        init(handler: @escaping HTTPServer.Handler, maximumBodySize: Int) {
            self.handler = handler
            self.maximumBodySize = maximumBodySize
        }
    }

    /// One request being read: what came with its headers, and the body so far. Used by one connection's thread at a
    /// time, as libmicrohttpd calls a connection's callbacks one after the other.
    private final class PendingRequest {
        var request: HTTPRequest
        var isTooLarge = false

        init(request: HTTPRequest) {
            self.request = request
        }
    }

    /// Collects a connection's key-value pairs (headers or query arguments) through libmicrohttpd's iterator.
    private final class PairCollector {
        var pairs: [(String, String)] = []
    }

    private let accessHandler: MHD_AccessHandlerCallback = {
        contextPointer, connection, url, method, _, uploadData, uploadDataSize, requestState in
        guard let contextPointer, let connection, let requestState else { return .NO }
        let context = Unmanaged<ServerContext>.fromOpaque(contextPointer).takeUnretainedValue()
        guard let statePointer = requestState.pointee else {
            // First call: the headers are in.
            let headers = pairs(of: connection, kind: .HEADER_KIND)
            var headerMap: [String: String] = [:]
            headerMap.reserveCapacity(headers.count)
            for (name, value) in headers { headerMap[name.lowercased()] = value }
            let arguments = pairs(of: connection, kind: .GET_ARGUMENT_KIND)
            var query: [String: [String]] = [:]
            query.reserveCapacity(arguments.count)
            for (name, value) in arguments {
                query[name, default: []].append(value)
            }
            let request = HTTPRequest(
                method: method.map { String(cString: $0) } ?? "GET", path: url.map { String(cString: $0) } ?? "/",
                query: query, headers: headerMap, body: [],
                isFromLoopback: CMicroHTTPD_client_is_loopback(connection) != 0)
            if let length = headerMap["content-length"].flatMap(Int.init), length > context.maximumBodySize {
                // Answered at once: libmicrohttpd then discards the body and closes the connection.
                return send(tooLarge(context.maximumBodySize), on: connection)
            }
            requestState.pointee = Unmanaged.passRetained(PendingRequest(request: request)).toOpaque()
            return .YES
        }
        let pending = Unmanaged<PendingRequest>.fromOpaque(statePointer).takeUnretainedValue()
        if let uploadDataSize, uploadDataSize.pointee > 0 {
            let count = uploadDataSize.pointee
            if pending.isTooLarge || pending.request.body.count + count > context.maximumBodySize {
                pending.isTooLarge = true
                pending.request.body = []
            } else if let uploadData {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: count) {
                    pending.request.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
                }
            }
            uploadDataSize.pointee = 0
            return .YES
        }
        let response = pending.isTooLarge ? tooLarge(context.maximumBodySize) : context.handler(pending.request)
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
        .json(
            413,
            Array(
                #"{"errorCode":4000000,"errorMessage":"Invalid request. The body is larger than \#(limit) bytes."}"#
                    .utf8))
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
