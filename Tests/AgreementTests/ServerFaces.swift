#if Server
    import Foundation
    import ReceiptKit
    import StoreModels
    import StoreServer
    import StoreSimulator
    import Testing
    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// The App Store Server API of the store, served in-process on a free port: Get All Subscription Statuses and Get
    /// Transaction History (v1 and v2, every page) for each account, against the engine's answers.
    struct ServerFaces {
        let store: SimulatedStore
        let server: StoreServer
        let key: ES256Key
        let session: URLSession

        init(store: SimulatedStore) throws {
            self.store = store
            key = try ES256Key.generate()
            server = try StoreServer(
                store: store,
                configuration: StoreServerConfiguration(
                    apiKeys: [APIKey(keyID: "AGREEMENT", key: key)], issuerID: "agreement", notificationsURL: nil,
                    notificationTimeout: 5, controlToken: "control-token"))
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = 20
            session = URLSession(configuration: configuration)
        }

        func stop() { server.stop() }

        /// Returns whether the account had a transaction to ask about.
        func check(account: String, context: String) async throws -> Bool {
            guard let any = store.transactions(of: account).first(where: { $0.state == .purchased }) else {
                return false
            }
            let statuses = try await json("/inApps/v1/subscriptions/\(any.id)")
            var seen: [String] = []
            for group in statuses["data"] as? [[String: Any]] ?? [] {
                for item in group["lastTransactions"] as? [[String: Any]] ?? [] {
                    let id = try Self.payload(item["signedTransactionInfo"])["transactionId"] as? String ?? "-"
                    seen.append(
                        "\(group["subscriptionGroupIdentifier"] as? String ?? "-") \(id) \(item["status"] ?? "-")")
                }
            }
            let engine = store.subscriptionStatuses(of: account).sorted { $0.groupID < $1.groupID }.map {
                "\($0.groupID) \($0.transactionID) \($0.code.rawValue)"
            }
            #expect(seen == engine, "Get All Subscription Statuses of \(account), \(context)")
            for (version, view) in [("v1", TransactionHistoryView.serverVersion1), ("v2", .serverVersion2)] {
                var ids: [UInt64] = []
                var revision: String?
                repeat {
                    let page = try await json(
                        "/inApps/\(version)/history/\(any.id)" + (revision.map { "?revision=\($0)" } ?? ""))
                    for signed in page["signedTransactions"] as? [String] ?? [] {
                        ids.append(UInt64(try Self.payload(signed)["transactionId"] as? String ?? "") ?? 0)
                    }
                    revision = page["hasMore"] as? Bool == true ? page["revision"] as? String : nil
                } while revision != nil
                #expect(
                    ids.sorted() == store.transactionHistory(of: account, view: view).map(\.id).sorted(),
                    "Get Transaction History \(version) of \(account), \(context)")
            }
            return true
        }

        /// A GET of the API, with a fresh token; the JSON object it answers.
        private func json(_ path: String) async throws -> [String: Any] {
            // swift-format-ignore: NeverForceUnwrap
            var request = URLRequest(url: URL(string: server.baseURL.absoluteString + path)!)
            request.setValue("Bearer \(try token())", forHTTPHeaderField: "Authorization")
            let (data, response) = try await session.data(for: request)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            guard status == 200, let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw URLError(.badServerResponse, userInfo: [NSLocalizedDescriptionKey: "\(path): HTTP \(status)"])
            }
            return object
        }

        /// A token as Apple's libraries make one, on the store's clock.
        private func token() throws -> String {
            let now = Int(store.now.timeIntervalSince1970)
            let header = ["alg": "ES256", "kid": "AGREEMENT", "typ": "JWT"]
            let claims: [String: Any] = [
                "iss": "agreement", "iat": now, "exp": now + 300, "aud": "appstoreconnect-v1", "bid": "com.example.app",
            ]
            let head = Self.base64URL(try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys]))
            let body = Self.base64URL(try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys]))
            let signature = try key.sign(Array("\(head).\(body)".utf8))
            return "\(head).\(body).\(Self.base64URL(Data(signature)))"
        }

        private static func base64URL(_ data: Data) -> String {
            data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }

        /// The payload of a JWS, unverified (the server's own tests verify its signatures).
        private static func payload(_ jws: Any?) throws -> [String: Any] {
            let parts = (jws as? String ?? "").split(separator: ".")
            guard parts.count == 3 else { throw URLError(.cannotParseResponse) }
            var text = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while text.count % 4 != 0 { text += "=" }
            guard let data = Data(base64Encoded: text),
                let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            else { throw URLError(.cannotParseResponse) }
            return object
        }
    }
#endif
