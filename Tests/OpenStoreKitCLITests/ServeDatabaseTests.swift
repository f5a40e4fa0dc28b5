#if Server && Postgres
    import Foundation
    import Ledger
    import TestSupport
    import Testing

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif
    #if canImport(Glibc)
        import Glibc
    #endif

    @Suite("serve --database on a PostgreSQL server", .requiresPostgres)
    struct ServeDatabaseTests {
        /// Sends a control API request to a served store and returns the answer's status and body.
        private static func control(_ base: String, _ method: String, _ path: String, _ body: String? = nil)
            async throws -> (status: Int, body: Data)
        {
            var request = URLRequest(url: try #require(URL(string: base + path)), timeoutInterval: 30)
            request.httpMethod = method
            request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
            request.httpBody = body.map { Data($0.utf8) }
            let (data, response) = try await URLSession.shared.data(for: request)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
        }

        @Test(
            "A restarted server on the same database has the same store and notification history; a second is refused")
        func restartKeepsTheNotificationHistory() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let schema = try LedgerDatabase.makeScratchSchema(serverURL: TestPostgres.url ?? "")
            defer { schema.drop() }
            func serve(_ run: Int) throws -> (ChildProcess, String) {
                let child = try ChildProcess(
                    [
                        "serve", "--port", "0", "--database", schema.url, "--control-token", "secret",
                        // Nothing listens there: each notification is attempted once (sandbox delivery), and fails.
                        "--notifications-url", "http://127.0.0.1:1/notifications", "--delivery", "sandbox",
                    ],
                    errorLog: directory.file("stderr\(run)"))
                return (child, try #require(child.readLine(within: 60)))
            }
            let (first, base) = try serve(1)
            for product in ["com.example.premium.monthly", "com.example.coins100"] {
                let bought = try await Self.control(
                    base, "POST", "/openstorekit/v1/purchases", #"{"productId":"\#(product)"}"#)
                #expect(bought.status == 200)
            }
            #expect(try await Self.control(base, "POST", "/openstorekit/v1/notifications/wait").status == 200)
            let history = try await Self.control(base, "GET", "/openstorekit/v1/notifications")
            #expect(history.status == 200)
            let records = try #require(try JSONSerialization.jsonObject(with: history.body) as? [[String: Any]])
            #expect(!records.isEmpty, "the subscription's purchase made a notification")
            // A second server on the same database is refused at once, and the first goes on.
            let second = try ChildProcess(
                ["serve", "--port", "0", "--database", schema.url], errorLog: directory.file("stderr-second"))
            #expect(second.waitForExit() == 2)
            #expect(second.errors.contains("in use"), "\(second.errors)")
            #expect(try await Self.control(base, "GET", "/openstorekit/v1/notifications").body == history.body)
            kill(first.pid, SIGTERM)
            #expect(first.waitForExit() == 0)

            // No file beside it: the history is in the database.
            let stored = try LedgerDatabase(url: schema.url).read { txn in
                try txn.count(in: "openstorekit.server.notifications")
            }
            #expect(stored == records.count)
            let (restarted, again) = try serve(3)
            let historyAgain = try await Self.control(again, "GET", "/openstorekit/v1/notifications")
            #expect(String(decoding: historyAgain.body, as: UTF8.self) == String(decoding: history.body, as: UTF8.self))
            let store = try await Self.control(again, "GET", "/openstorekit/v1/store")
            #expect(store.status == 200)
            kill(restarted.pid, SIGTERM)
            #expect(restarted.waitForExit() == 0)
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: directory.path).allSatisfy {
                    $0.hasPrefix("stderr")
                })
        }
    }
#endif
