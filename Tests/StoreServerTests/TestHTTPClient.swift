#if Server
    import Foundation
    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// A keep-alive HTTP client for the tests: URLSession, with a bounded timeout on every request.
    struct TestHTTPClient: Sendable {
        let base: URL
        let session: URLSession

        init(base: URL) {
            self.base = base
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = 20
            configuration.timeoutIntervalForResource = 30
            session = URLSession(configuration: configuration)
        }

        init(port: UInt16) {
            // swift-format-ignore: NeverForceUnwrap
            self.init(base: URL(string: "http://127.0.0.1:\(port)")!)
        }

        /// Sends a request; returns the status, the headers (lowercased names) and the body.
        func send(
            _ method: String, _ path: String, headers: [String: String] = [:], body: [UInt8]? = nil
        ) async throws -> (status: Int, headers: [String: String], body: [UInt8]) {
            // swift-format-ignore: NeverForceUnwrap
            var request = URLRequest(url: URL(string: base.absoluteString + path)!)
            request.httpMethod = method
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            if let body { request.httpBody = Data(body) }
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
            var lowered: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { lowered[name.lowercased()] = value }
            }
            return (http.statusCode, lowered, [UInt8](data))
        }

        /// The body decoded as a JSON object.
        static func object(_ body: [UInt8]) throws -> [String: Any] {
            guard let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
                throw URLError(.cannotParseResponse)
            }
            return object
        }
    }
#endif
