#if Server
    import Foundation
    import ReceiptKit
    @testable import StoreServer
    import StoreSimulator
    import TestSupport
    import Testing

    #if canImport(Glibc)
        import Glibc
    #endif

    @Suite struct NotificationDeliveryTests {
        static let verifier: JWSVerifier = {
            // swift-format-ignore: NeverUseForceTry
            try! JWSVerifier(trustedRoots: [.openStoreKitJWSTestRoot])
        }()

        /// The decoded payload of a signed notification, verified as Apple's libraries verify it.
        static func verified(_ jws: String) throws -> [String: Any] {
            let verified = try verifier.verify(
                jws, options: JWSVerificationOptions(bundleIdentifier: "com.example.app", environment: .sandbox))
            guard let object = try JSONSerialization.jsonObject(with: Data(verified.payloadJSON)) as? [String: Any]
            else {
                throw URLError(.cannotParseResponse)
            }
            return object
        }

        @Test func aTestNotificationArrivesSignedAndItsStatusShowsTheAttempt() async throws {
            let receiver = try TestReceiver()
            let fixture = try ServerFixture(notificationsURL: receiver.url)
            defer { fixture.server.stop() }
            let sent = try await fixture.api("POST", "/inApps/v1/notifications/test")
            #expect(sent.status == 200)
            let token = try #require(try TestHTTPClient.object(sent.body)["testNotificationToken"] as? String)
            try await bounded("the test notification's delivery") { await fixture.server.notifications.idle() }
            let payloads = receiver.signedPayloads
            #expect(payloads.count == 1)
            let payload = try Self.verified(try #require(payloads.first))
            #expect(payload["notificationType"] as? String == "TEST")
            #expect(payload["version"] as? String == "2.0")
            #expect((payload["data"] as? [String: Any])?["environment"] as? String == "Sandbox")
            #expect(payload["signedDate"] as? Int == Int(fixture.store.now.timeIntervalSince1970 * 1000))
            let status = try await fixture.api("GET", "/inApps/v1/notifications/test/" + token)
            #expect(status.status == 200)
            let object = try TestHTTPClient.object(status.body)
            #expect(object["signedPayload"] as? String == payloads.first)
            let attempts = try #require(object["sendAttempts"] as? [[String: Any]])
            #expect(attempts.map { $0["sendAttemptResult"] as? String } == ["SUCCESS"])
        }

        @Test func aFailingReceiverGetsApplesRetriesOnTheStoresClock() async throws {
            let receiver = try TestReceiver()
            receiver.answer(500)
            let fixture = try ServerFixture(notificationsURL: receiver.url)
            defer { fixture.server.stop() }
            let start = Int64(fixture.store.now.timeIntervalSince1970 * 1000)
            _ = try await fixture.api("POST", "/inApps/v1/notifications/test")
            try await bounded("the first attempt") { await fixture.server.notifications.idle() }
            var record = try #require(fixture.server.notifications.records.first)
            #expect(record.attempts.map(\.sendAttemptResult) == ["UNSUCCESSFUL_HTTP_RESPONSE_CODE"])
            #expect(record.nextAttemptDate == start + 3_600_000)
            // Half an hour: nothing is due yet.
            #expect(try await fixture.control("POST", "advance", #"{"seconds":1800}"#).status == 200)
            try await bounded("no retry yet") { await fixture.server.notifications.idle() }
            #expect(receiver.signedPayloads.count == 1)
            // Past every retry at once: each is made, dated when it was due, and then no more.
            #expect(try await fixture.control("POST", "advance", #"{"seconds":1000000}"#).status == 200)
            try await bounded("the retries") { await fixture.server.notifications.idle() }
            record = try #require(fixture.server.notifications.records.first)
            #expect(record.attempts.count == 6)
            let hours = record.attempts.map { ($0.attemptDate - start) / 3_600_000 }
            #expect(hours == [0, 1, 13, 37, 85, 157])
            #expect(record.nextAttemptDate == nil)
            #expect(Set(receiver.signedPayloads).count == 1)
            #expect(receiver.signedPayloads.count == 6)
            // The history shows every attempt, and onlyFailures finds it.
            let now = Int64(fixture.store.now.timeIntervalSince1970 * 1000)
            let history = try await fixture.api(
                "POST", "/inApps/v1/notifications/history",
                body: Array(#"{"startDate":\#(start),"endDate":\#(now),"onlyFailures":true}"#.utf8))
            let items = try #require(try TestHTTPClient.object(history.body)["notificationHistory"] as? [[String: Any]])
            #expect(items.count == 1)
            #expect((items.first?["sendAttempts"] as? [Any])?.count == 6)
        }

        @Test func sandboxDeliveryAttemptsAFailingReceiverOnceAndNeverRetries() async throws {
            let receiver = try TestReceiver()
            receiver.answer(500)
            let fixture = try ServerFixture(notificationsURL: receiver.url, delivery: .sandbox)
            defer { fixture.server.stop() }
            let sent = try await fixture.api("POST", "/inApps/v1/notifications/test")
            let token = try #require(try TestHTTPClient.object(sent.body)["testNotificationToken"] as? String)
            try await bounded("the attempt") { await fixture.server.notifications.idle() }
            var record = try #require(fixture.server.notifications.records.first)
            #expect(record.attempts.map(\.sendAttemptResult) == ["UNSUCCESSFUL_HTTP_RESPONSE_CODE"])
            #expect(record.nextAttemptDate == nil)
            // Past every retry production would make: none is.
            #expect(try await fixture.control("POST", "advance", #"{"seconds":1000000}"#).status == 200)
            try await bounded("no retry") { await fixture.server.notifications.idle() }
            record = try #require(fixture.server.notifications.records.first)
            #expect(record.attempts.count == 1)
            #expect(receiver.signedPayloads.count == 1)
            let status = try await fixture.api("GET", "/inApps/v1/notifications/test/" + token)
            let attempts = try #require(try TestHTTPClient.object(status.body)["sendAttempts"] as? [[String: Any]])
            #expect(attempts.count == 1)
        }

        @Test func aRetryThatSucceedsEndsTheRetries() async throws {
            let receiver = try TestReceiver()
            receiver.answer(503)
            let fixture = try ServerFixture(notificationsURL: receiver.url)
            defer { fixture.server.stop() }
            _ = try await fixture.api("POST", "/inApps/v1/notifications/test")
            try await bounded("the first attempt") { await fixture.server.notifications.idle() }
            receiver.answer(204)
            _ = try await fixture.control("POST", "advance", #"{"seconds":3600}"#)
            try await bounded("the retry") { await fixture.server.notifications.idle() }
            _ = try await fixture.control("POST", "advance", #"{"seconds":864000}"#)
            try await bounded("nothing more") { await fixture.server.notifications.idle() }
            let record = try #require(fixture.server.notifications.records.first)
            #expect(record.attempts.map(\.sendAttemptResult) == ["UNSUCCESSFUL_HTTP_RESPONSE_CODE", "SUCCESS"])
            #expect(record.nextAttemptDate == nil)
        }

        @Test func aReceiverThatRefusesOrHangsIsRecordedAsSuch() async throws {
            // A port bound without listening: connections are refused, and no other test's server can take it.
            let (bound, closedPort) = try LoopbackListener.open(listening: false)
            defer { close(bound) }
            // swift-format-ignore: NeverForceUnwrap
            let refused = try ServerFixture(notificationsURL: URL(string: "http://127.0.0.1:\(closedPort)/n")!)
            defer { refused.server.stop() }
            _ = try await refused.api("POST", "/inApps/v1/notifications/test")
            try await bounded("the refused attempt") { await refused.server.notifications.idle() }
            #expect(refused.server.notifications.records.first?.attempts.map(\.sendAttemptResult) == ["NO_RESPONSE"])

            // A listener that accepts and never answers: the attempt times out (the fixture allows 5 s).
            let (listener, port) = try LoopbackListener.open()
            defer { close(listener) }
            // swift-format-ignore: NeverForceUnwrap
            let hanging = try ServerFixture(notificationsURL: URL(string: "http://127.0.0.1:\(port)/n")!)
            defer { hanging.server.stop() }
            _ = try await hanging.api("POST", "/inApps/v1/notifications/test")
            try await bounded("the timed-out attempt") { await hanging.server.notifications.idle() }
            #expect(hanging.server.notifications.records.first?.attempts.map(\.sendAttemptResult) == ["TIMED_OUT"])
            // The API went on answering meanwhile.
            #expect(try await hanging.api("GET", "/inApps/v1/transactions/1").status == 404)
        }

        @Test func aRedirectIsAFailedAttemptAndIsNotFollowed() async throws {
            let elsewhere = try TestReceiver()
            let receiver = try TestReceiver()
            receiver.answer(307, headers: [HTTPHeader(name: "Location", value: elsewhere.url.absoluteString)])
            let fixture = try ServerFixture(notificationsURL: receiver.url)
            defer { fixture.server.stop() }
            let start = Int64(fixture.store.now.timeIntervalSince1970 * 1000)
            _ = try await fixture.api("POST", "/inApps/v1/notifications/test")
            try await bounded("the attempt") { await fixture.server.notifications.idle() }
            let record = try #require(fixture.server.notifications.records.first)
            #expect(record.attempts.map(\.sendAttemptResult) == ["UNSUCCESSFUL_HTTP_RESPONSE_CODE"])
            #expect(record.nextAttemptDate == start + 3_600_000)
            #expect(receiver.signedPayloads.count == 1)
            #expect(elsewhere.signedPayloads.isEmpty)
        }

        /// The attempt's result for a receiver answering with `receiver`.
        static func result(_ receiver: EndlessReceiver) async throws -> (result: [String], written: Int) {
            let fixture = try ServerFixture(notificationsURL: receiver.url)
            defer { fixture.server.stop() }
            _ = try await fixture.api("POST", "/inApps/v1/notifications/test")
            try await bounded("the attempt") { await fixture.server.notifications.idle() }
            let record = try #require(fixture.server.notifications.records.first)
            let written = await receiver.bodyWritten()
            return (record.attempts.map(\.sendAttemptResult), written)
        }

        /// At most this much of an endless answer goes out before the sender closes: 64 KiB read, the rest the two
        /// loopback sockets' buffers (a few MiB at most); a sender reading the whole answer takes it all (1 GiB).
        static let writtenBound = 8 << 20

        @Test(arguments: [
            // 200, a Content-Length of a terabyte, then a body that does not end (until 1 GiB went out).
            "HTTP/1.1 200 OK\r\nContent-Length: 1000000000000\r\n\r\n",
            // The same without a length, and chunked.
            "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10000000\r\n",
            // A success other than 200.
            "HTTP/1.1 202 Accepted\r\nContent-Length: 1000000000000\r\n\r\n",
        ])
        func aResponseBodyThatDoesNotEndIsNotReadAndTheStatusDecides(head: String) async throws {
            let (result, written) = try await Self.result(EndlessReceiver(head: head, limit: 1 << 30))
            #expect(result == ["SUCCESS"])
            #expect(written < Self.writtenBound)
        }

        @Test func headersThatDoNotEndAreAnInvalidResponseAndAreNotRead() async throws {
            let receiver = try EndlessReceiver(
                head: "HTTP/1.1 200 OK\r\n", filler: "X-Filler: aaaaaaaaaaaaaaaa\r\n", limit: 1 << 30)
            let (result, written) = try await Self.result(receiver)
            #expect(result == ["INVALID_RESPONSE"])
            #expect(written < Self.writtenBound)
        }

        @Test(arguments: [
            ("HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok", "SUCCESS"),
            ("HTTP/1.0 204 No Content\r\n\r\n", "SUCCESS"),
            ("HTTP/1.1 206 \r\nContent-Length: 0\r\n\r\n", "SUCCESS"),
            ("HTTP/1.1 207 Multi-Status\r\nContent-Length: 0\r\n\r\n", "UNSUCCESSFUL_HTTP_RESPONSE_CODE"),
            ("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n\r\n", "UNSUCCESSFUL_HTTP_RESPONSE_CODE"),
            (
                "HTTP/1.1 301 Moved Permanently\r\nLocation: http://127.0.0.1:1/\r\n\r\n",
                "UNSUCCESSFUL_HTTP_RESPONSE_CODE"
            ),
            ("HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:1/\r\n\r\n", "UNSUCCESSFUL_HTTP_RESPONSE_CODE"),
            (
                "HTTP/1.1 308 Permanent Redirect\r\nLocation: http://127.0.0.1:1/\r\n\r\n",
                "UNSUCCESSFUL_HTTP_RESPONSE_CODE"
            ),
            ("HTTP/1.1 404 Not Found\r\nContent-Length: 1000000000000\r\n\r\n", "UNSUCCESSFUL_HTTP_RESPONSE_CODE"),
            ("HTTP/1.1 503 Service Unavailable\r\n\r\n", "UNSUCCESSFUL_HTTP_RESPONSE_CODE"),
            ("SPAM\r\n\r\n", "INVALID_RESPONSE"),
            ("", "PREMATURE_CLOSE"),
        ])
        func theStatusLineAloneDecides(head: String, expected: String) async throws {
            let (result, _) = try await Self.result(EndlessReceiver(head: head, filler: "", limit: 0))
            #expect(result == [expected])
        }

        @Test func theHistorySurvivesARestartAndUnsentNotificationsGoOut() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let path = directory.file("history.notifications")
            let receiver = try TestReceiver()
            let store = SimulatedStore(lane: .manual)
            let first = try ServerFixture(notificationsURL: receiver.url, historyPath: path, store: store)
            _ = try await first.api("POST", "/inApps/v1/notifications/test")
            try await bounded("the first delivery") { await first.server.notifications.idle() }
            first.server.stop()
            #expect(receiver.signedPayloads.count == 1)

            let second = try ServerFixture(notificationsURL: receiver.url, historyPath: path, store: store)
            let records = second.server.notifications.records
            #expect(records.count == 1)
            #expect(records.first?.attempts.map(\.sendAttemptResult) == ["SUCCESS"])
            second.server.stop()
            #expect(receiver.signedPayloads.count == 1)  // a delivered notification is not sent again

            // A notification made but never attempted (the process ended first), then a line torn by a crash.
            var unsent = try #require(records.first)
            unsent.notificationUUID = "00000000-0000-4000-8000-00000000000a"
            unsent.attempts = []
            var text = try String(contentsOfFile: path, encoding: .utf8)
            text += String(decoding: try JSONEncoder().encode(unsent), as: UTF8.self) + "\n"
            text += #"{"notificationUUID":"torn"#
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let third = try ServerFixture(notificationsURL: receiver.url, historyPath: path, store: store)
            defer { third.server.stop() }
            try await bounded("the unsent notification") { await third.server.notifications.idle() }
            #expect(third.server.notifications.records.count == 2)
            #expect(third.server.notifications.records.last?.attempts.map(\.sendAttemptResult) == ["SUCCESS"])
            #expect(receiver.signedPayloads.count == 2)
        }

        @Test func stoppingWithNotificationsQueuedAttemptsNoMoreAndTheNextServerSendsTheRest() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let path = directory.file("history.notifications")
            let receiver = try TestReceiver()
            let store = SimulatedStore(lane: .manual)
            let first = try ServerFixture(notificationsURL: receiver.url, historyPath: path, store: store)
            for _ in 0..<40 {
                try first.server.perform(.buyProduct(productID: "com.example.coins100", account: "alice"))
            }
            first.server.stop()  // most of the 40 are still queued: none of them may be attempted now
            let attempted = first.server.notifications.records.filter { !$0.attempts.isEmpty }
            #expect(attempted.allSatisfy { $0.attempts.map(\.sendAttemptResult) == ["SUCCESS"] })
            let second = try ServerFixture(notificationsURL: receiver.url, historyPath: path, store: store)
            defer { second.server.stop() }
            try await bounded("the queued notifications") { await second.server.notifications.idle() }
            let records = second.server.notifications.records
            #expect(records.count == 40)
            #expect(records.allSatisfy { $0.isDelivered })
            #expect(Set(receiver.signedPayloads).count == 40)
        }

        @Test func aDamagedHistoryIsRefusedNamingTheLine() throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let path = directory.file("history.notifications")
            try Data("not json\n{}\n".utf8).write(to: URL(fileURLWithPath: path))
            #expect(throws: StoreServerError(.notificationStateFailed, "")) {
                _ = try ServerFixture(historyPath: path)
            }
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "not json\n{}\n")
        }
    }
#endif
