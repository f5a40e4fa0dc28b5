#if Server
    import Foundation
    import StoreServer
    import StoreSimulator
    import TestSupport
    import Testing

    /// Apple keeps Get Notification History for 180 days: older notifications leave memory and the history file.
    @Suite struct NotificationHistoryWindowTests {
        static let day = 86_400

        /// The notifications the history file's lines are about, each once, in the order of their first line.
        static func uuidsInFile(_ path: String) throws -> [String] {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            var uuids: [String] = []
            for line in text.split(separator: "\n") {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                let uuid = try #require(object["notificationUUID"] as? String)
                if !uuids.contains(uuid) { uuids.append(uuid) }
            }
            return uuids
        }

        static func buyCoins(_ fixture: ServerFixture) async throws {
            let response = try await fixture.control("POST", "purchases", #"{"productId":"com.example.coins100"}"#)
            #expect(response.status == 200)
            try await bounded("the delivery") { await fixture.server.notifications.idle() }
        }

        static func advance(_ fixture: ServerFixture, days: Int) async throws {
            let response = try await fixture.control("POST", "advance", #"{"seconds":\#(days * day)}"#)
            #expect(response.status == 200)
            try await bounded("the deliveries") { await fixture.server.notifications.idle() }
        }

        @Test func notificationsOlderThan180DaysLeaveMemoryAndTheHistoryFile() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let path = directory.file("history.notifications")
            let receiver = try TestReceiver()
            let store = SimulatedStore(lane: .manual)
            let first = try ServerFixture(notificationsURL: receiver.url, historyPath: path, store: store)
            try await Self.buyCoins(first)
            try await Self.advance(first, days: 100)
            try await Self.buyCoins(first)
            let made = first.server.notifications.records.map(\.notificationUUID)
            #expect(made.count == 2)
            #expect(try Self.uuidsInFile(path) == made)

            // Day 200: the first notification is 200 days old, the second 100.
            try await Self.advance(first, days: 100)
            #expect(first.server.notifications.records.map(\.notificationUUID) == [made[1]])
            #expect(try Self.uuidsInFile(path) == [made[1]])
            let listed = try await first.control("GET", "notifications")
            #expect((try JSONSerialization.jsonObject(with: Data(listed.body)) as? [Any])?.count == 1)
            first.server.stop()

            // A server opening the history again keeps what is within the window; a year later nothing is left.
            let second = try ServerFixture(notificationsURL: receiver.url, historyPath: path, store: store)
            defer { second.server.stop() }
            #expect(second.server.notifications.records.map(\.notificationUUID) == [made[1]])
            try await Self.advance(second, days: 365)
            #expect(second.server.notifications.records.isEmpty)
            #expect(try Self.uuidsInFile(path) == [])
            #expect(receiver.signedPayloads.count == 2, "dropping sends nothing")
        }

        @Test func aNotificationWithARetryDueIsKeptUntilItsAttemptsAreMade() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let path = directory.file("history.notifications")
            let receiver = try TestReceiver()
            receiver.answer(500)
            let store = SimulatedStore(lane: .manual)
            let first = try ServerFixture(notificationsURL: receiver.url, historyPath: path, store: store)
            try await Self.buyCoins(first)
            #expect(first.server.notifications.records.first?.nextAttemptDate != nil)
            first.server.stop()

            // The clock moves a year while no server runs: the retry is still due when a server opens the history.
            try store.advance(to: store.now.addingTimeInterval(TimeInterval(365 * Self.day)))
            let second = try ServerFixture(notificationsURL: receiver.url, historyPath: path, store: store)
            defer { second.server.stop() }
            let kept = second.server.notifications.records
            #expect(kept.count == 1)
            #expect(kept.first?.attempts.count == 1)

            // The next change makes every retry (each dated when it was due); then the notification is past the window.
            try await Self.advance(second, days: 1)
            #expect(receiver.signedPayloads.count == 6, "the first attempt and Apple's five retries")
            #expect(second.server.notifications.records.isEmpty)
            #expect(try Self.uuidsInFile(path) == [])
        }

        @Test func aNotificationWithinTheWindowIsKept() async throws {
            let receiver = try TestReceiver()
            let fixture = try ServerFixture(notificationsURL: receiver.url)
            defer { fixture.server.stop() }
            try await Self.buyCoins(fixture)
            try await Self.advance(fixture, days: 179)
            #expect(fixture.server.notifications.records.count == 1)
            try await Self.advance(fixture, days: 2)
            #expect(fixture.server.notifications.records.isEmpty)
        }
    }
#endif
