#if Server
    /// One HTTP request as the server received it: method, path, query, headers and the whole body.
    struct HTTPRequest: Sendable, Hashable {
        /// The method, such as `GET` or `POST`.
        var method: String
        /// The path, without the query string, percent-decoded by the HTTP library.
        var path: String
        /// The query's values by name, in the order they came (a name may repeat: `?productType=A&productType=B`).
        var query: [String: [String]]
        /// The headers by lowercased name (a repeated header keeps its last value).
        var headers: [String: String]
        /// The body.
        var body: [UInt8]
        /// Whether the client connected from a loopback address.
        var isFromLoopback: Bool

        /// Creates a request.
        init(
            method: String, path: String, query: [String: [String]] = [:], headers: [String: String] = [:],
            body: [UInt8] = [], isFromLoopback: Bool = true
        ) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
            self.body = body
            self.isFromLoopback = isFromLoopback
        }

        /// The value of a header (any case), if present.
        func header(_ name: String) -> String? {
            headers[name.lowercased()]
        }
    }
#endif
