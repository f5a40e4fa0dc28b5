#if Server
    /// One HTTP request as the server received it: method, path, query, headers and the whole body.
    package struct HTTPRequest: Sendable, Hashable {
        /// The method, such as `GET` or `POST`.
        package var method: String
        /// The path, without the query string, percent-decoded by the HTTP library.
        package var path: String
        /// The query's values by name, in the order they came (a name may repeat: `?productType=A&productType=B`).
        package var query: [String: [String]]
        /// The headers by lowercased name (a repeated header keeps its last value).
        package var headers: [String: String]
        /// The body.
        package var body: [UInt8]
        /// Whether the client connected from a loopback address.
        package var isFromLoopback: Bool

        /// Creates a request.
        package init(
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
        package func header(_ name: String) -> String? {
            headers[name.lowercased()]
        }
    }
#endif
