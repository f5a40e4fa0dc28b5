#if Server
    /// One HTTP response: a status, headers and a body.
    struct HTTPResponse: Sendable, Hashable {
        /// The status code, such as 200.
        var status: Int
        /// The headers, in order.
        var headers: [HTTPHeader]
        /// The body.
        var body: [UInt8]

        /// Creates a response.
        init(status: Int, headers: [HTTPHeader] = [], body: [UInt8] = []) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// A response with a JSON body (`Content-Type: application/json`).
        static func json(_ status: Int, _ body: [UInt8]) -> HTTPResponse {
            HTTPResponse(
                status: status, headers: [HTTPHeader(name: "Content-Type", value: "application/json")], body: body)
        }

        /// A response with a plain-text body.
        static func text(_ status: Int, _ text: String) -> HTTPResponse {
            HTTPResponse(
                status: status, headers: [HTTPHeader(name: "Content-Type", value: "text/plain; charset=utf-8")],
                body: Array(text.utf8))
        }
    }

#endif
