#if Server
    import Foundation
    import Ledger
    import TestSupport
    import Testing

    @testable import StoreServer

    /// The notification history kept in a store's database (a store on a server database has no file beside it), here
    /// on an SQLite Ledger database: the same records in the same order as the file keeps them.
    @Suite struct NotificationHistoryDatabaseTests {
        private static func record(_ number: Int, attempts: [String] = []) -> NotificationRecord {
            NotificationRecord(
                notificationUUID: "00000000-0000-4000-8000-\(String(repeating: "0", count: 11))\(number)",
                notificationType: "TEST", subtype: nil, signedDate: Int64(number) * 1000, signedPayload: "jws\(number)",
                originalTransactionID: UInt64(number), testNotificationToken: nil,
                attempts: attempts.enumerated().map {
                    .init(attemptDate: Int64($0.offset), sendAttemptResult: $0.element)
                },
                nextAttemptDate: nil)
        }

        @Test func theHistoryIsReadBackInTheOrderMadeWithEachRecordsLastStateAndWithoutWhatWasDropped() throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let database = try LedgerDatabase(path: directory.file("store.sqlite"))
            let place = NotificationHistory.Place.database(location: "the test database") { database }
            let (history, empty) = try NotificationHistory.open(place) { _ in true }
            #expect(empty.isEmpty)
            for number in 1...4 { try history.write(Self.record(number)) }
            try history.write(Self.record(2, attempts: ["SUCCESS"]))  // a change keeps the record's place
            try history.rewrite([Self.record(2, attempts: ["SUCCESS"]), Self.record(3), Self.record(4)])
            let (_, records) = try NotificationHistory.open(place) { $0.originalTransactionID != 3 }
            #expect(records == [Self.record(2, attempts: ["SUCCESS"]), Self.record(4)])
            // What `keep` turned down is gone from the database too.
            let keys = try database.read { txn in
                try txn.all(in: NotificationHistory.collection, order: .insertion).map(\.key)
            }
            #expect(keys == [Self.record(2).notificationUUID, Self.record(4).notificationUUID])
        }

        @Test func aRowThatIsNoRecordIsRefusedNamingTheDatabaseCollectionAndKeyAndIsKept() throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let database = try LedgerDatabase(path: directory.file("store.sqlite"))
            try database.write { txn in
                try txn.put(Array("garbage".utf8), forKey: "k1", in: NotificationHistory.collection)
            }
            let place = NotificationHistory.Place.database(location: "postgresql://db/store") { database }
            #expect(throws: StoreServerError(.notificationStateFailed, "")) {
                _ = try NotificationHistory.open(place) { _ in true }
            }
            do {
                _ = try NotificationHistory.open(place) { _ in true }
            } catch {
                #expect(
                    error.detail.contains(
                        "postgresql://db/store, collection openstorekit.server.notifications, key k1"),
                    "\(error.detail)")
            }
            let value = try database.read { txn in try txn.value(forKey: "k1", in: NotificationHistory.collection) }
            #expect(value == Array("garbage".utf8))
        }

        @Test func aClosedStoreDatabaseIsAnErrorNotACrash() throws {
            let place = NotificationHistory.Place.database(location: "postgresql://db/store") { nil }
            #expect(throws: StoreServerError(.notificationStateFailed, "")) {
                _ = try NotificationHistory.open(place) { _ in true }
            }
        }
    }
#endif
