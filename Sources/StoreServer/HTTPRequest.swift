#if Server
    /// One HTTP request as the server received it: method, path, query, headers and the whole body.
    public struct HTTPRequest: Sendable, Hashable {
        /// The method, such as `GET` or `POST`.
        public var method: String
        /// The path, without the query string, percent-decoded by the HTTP library.
        public var path: String
        /// The query's values by name, in the order they came (a name may repeat: `?productType=A&productType=B`).
        public var query: [String: [String]]
        /// The headers by lowercased name (a repeated header keeps its last value).
        public var headers: [String: String]
        /// The body.
        public var body: [UInt8]
        /// Whether the client connected from a loopback address.
        public var isFromLoopback: Bool

        /// Creates a request.
        public init(
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
        public func header(_ name: String) -> String? {
            headers[name.lowercased()]
        }
    }
#endif
