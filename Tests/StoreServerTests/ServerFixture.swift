#if Server
    import Foundation
    import ReceiptKit
    import StoreModels
    import StoreServer
    import StoreSimulator

    /// A served store for a test: a manual-lane store, a fresh API key, a server on port 0, a client and tokens.
    struct ServerFixture: Sendable {
        static let issuer = "57246542-96fe-1a63-e053-0824d011072a"
        static let keyID = "TESTKEY123"

        let store: SimulatedStore
        let server: StoreServer
        let client: TestHTTPClient
        let key: ES256Key

        init(
            notificationsURL: URL? = nil, historyPath: String? = nil, store: SimulatedStore? = nil,
            rateLimits: RateLimits? = nil, delivery: NotificationDelivery = .production,
            realtimeTimeout: TimeInterval = 2
        ) throws {
            let store = store ?? SimulatedStore(lane: .manual)
            let key = try ES256Key.generate()
            self.store = store
            self.key = key
            var configuration = StoreServerConfiguration(
                apiKeys: [APIKey(keyID: Self.keyID, key: key)], issuerID: Self.issuer,
                notificationsURL: notificationsURL, notificationTimeout: 5, controlToken: "control-token",
                notificationHistoryPath: historyPath, rateLimits: rateLimits, notificationDelivery: delivery)
            configuration.realtimeTimeout = realtimeTimeout
            server = try StoreServer(store: store, configuration: configuration)
            client = TestHTTPClient(base: server.baseURL)
        }

        /// A token as Apple's libraries make it, on the store's clock.
        func token(
            keyID: String = ServerFixture.keyID, issuer: String = ServerFixture.issuer,
            bundleID: String? = "com.example.app",
            audience: String = "appstoreconnect-v1", issuedAt: Date? = nil, lifetime: TimeInterval = 300,
            algorithm: String = "ES256", signingKey: ES256Key? = nil
        ) throws -> String {
            let iat = issuedAt ?? store.now
            var claims: [String: Any] = [
                "iss": issuer, "iat": Int(iat.timeIntervalSince1970), "exp": Int(iat.timeIntervalSince1970 + lifetime),
                "aud": audience,
            ]
            if issuedAt == nil, lifetime < 0 { claims["iat"] = Int(iat.timeIntervalSince1970 + lifetime - 60) }
            if let bundleID { claims["bid"] = bundleID }
            return try Self.jwt(
                header: ["alg": algorithm, "kid": keyID, "typ": "JWT"], claims: claims, key: signingKey ?? key)
        }

        static func jwt(header: [String: Any], claims: [String: Any], key: ES256Key) throws -> String {
            let head = base64URL(try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys]))
            let body = base64URL(try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys]))
            let signature = try key.sign(Array("\(head).\(body)".utf8))
            return "\(head).\(body).\(base64URL(Data(signature)))"
        }

        static func base64URL(_ data: Data) -> String {
            data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }

        /// Calls the App Store Server API with a good token.
        func api(_ method: String, _ path: String, body: [UInt8]? = nil) async throws -> (
            status: Int, headers: [String: String], body: [UInt8]
        ) {
            var headers = ["Authorization": "Bearer " + (try token())]
            if body != nil { headers["Content-Type"] = "application/json" }
            return try await client.send(method, path, headers: headers, body: body)
        }

        /// Calls the control API.
        func control(_ method: String, _ path: String, _ body: String? = nil) async throws -> (
            status: Int, headers: [String: String], body: [UInt8]
        ) {
            try await client.send(
                method, "/openstorekit/v1/" + path, headers: ["Authorization": "Bearer control-token"],
                body: body.map { Array($0.utf8) })
        }
    }
#endif
