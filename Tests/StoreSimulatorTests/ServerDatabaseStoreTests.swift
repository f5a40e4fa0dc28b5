#if Postgres
    import Foundation
    import Ledger
    import StoreModels
    import TestSupport
    import Testing

    @testable import StoreSimulator

    /// The durable store on a Ledger database on a PostgreSQL server (`OPENSTOREKIT_TEST_POSTGRES`): the tests of
    /// state files that do not depend on a file, run on a fresh schema each.
    @Suite("Durable store on a PostgreSQL server", .requiresPostgres)
    struct ServerDatabaseStoreTests {
        @Test(
            "A reopened store on the server has exactly the state it had: history, devices, subscriptions, receipts",
            arguments: [
                (StoreDurability.Commit.everyChange, nil as Int?, UInt64(1)), (.group(every: 50), 40, 4),
            ])
        func reopenReproducesState(commit: StoreDurability.Commit, compactEvery: Int?, seed: UInt64) throws {
            let schema = try LedgerDatabase.makeScratchSchema(serverURL: TestPostgres.url ?? "")
            defer { schema.drop() }
            let durability = StoreDurability(commit: commit, compactEvery: compactEvery)
            try expectReopenReproducesState(seed: seed) {
                let store = try SimulatedStore(database: schema.url, durability: durability, lane: .manual)
                #expect(store.statePath == nil)
                #expect(store.databaseLocation == store.ledger?.location)
                return store
            }
        }

        @Test("A compaction on the server writes every changed row: reopened from the tables alone, the store is whole")
        func compaction() throws {
            let schema = try LedgerDatabase.makeScratchSchema(serverURL: TestPostgres.url ?? "")
            defer { schema.drop() }
            try DurableStoreTests.expectCompactionWritesEveryChangedRow { durability in
                try SimulatedStore(database: schema.url, durability: durability, lane: .manual)
            }
        }

        @Test("A second store on the same database is refused naming it, and the first goes on")
        func secondStoreRefused() throws {
            let schema = try LedgerDatabase.makeScratchSchema(serverURL: TestPostgres.url ?? "")
            defer { schema.drop() }
            let first = try SimulatedStore(database: schema.url, lane: .manual)
            let (device, listener) = first.silentConnection("phone")
            let bought = device.submitNow(PaymentRequest(productID: "com.example.pro"))
            first.runUntilIdle()
            do {
                _ = try SimulatedStore(database: schema.url, lane: .manual)
                Issue.record("a second store opened the database")
            } catch {
                #expect(error.code == .stateUnavailable)
                #expect(error.detail.contains(try #require(first.databaseLocation)), "\(error.detail)")
            }
            // The first store goes on, and what it does is kept.
            let later = device.submitNow(PaymentRequest(productID: "com.example.coins100"))
            first.runUntilIdle()
            #expect(first.durabilityError == nil)
            withExtendedLifetime(listener) {}
            try first.close()
            let reopened = try SimulatedStore(database: schema.url, lane: .manual)
            #expect(reopened.unfinishedTransactions(deviceID: "phone").map(\.id) == [bought.id, later.id])
            try reopened.close()
        }

        @Test("Format 1 belongs to state files: a server database that says it holds it is refused, not migrated")
        func firstFormatRefused() throws {
            let schema = try LedgerDatabase.makeScratchSchema(serverURL: TestPostgres.url ?? "")
            defer { schema.drop() }
            // Asked to write format 1 (as tests make files of earlier releases), a store on a server writes the
            // current format.
            var durability = StoreDurability()
            durability.writesFirstFormat = true
            try SimulatedStore(database: schema.url, durability: durability, lane: .manual).close()
            do {
                let database = try LedgerDatabase(url: schema.url)
                #expect(try database.read { txn in try txn.metaInteger(forKey: StoreJournal.formatKey) } == 2)
                try database.write { txn in try txn.setMeta(Int64(1), forKey: StoreJournal.formatKey) }
            }
            let error = try #require(throws: StoreSimulatorError.self) {
                try SimulatedStore(database: schema.url, lane: .manual)
            }
            #expect(error.code == .stateCorrupt)
            #expect(error.detail.contains("holds store format 1"), "\(error.detail)")
            let format = try LedgerDatabase(url: schema.url).read { txn in
                try txn.metaInteger(forKey: StoreJournal.formatKey)
            }
            #expect(format == 1, "left as it was")
        }

        @Test("A database written by a newer store format is refused and left untouched")
        func newerFormatRefused() throws {
            let schema = try LedgerDatabase.makeScratchSchema(serverURL: TestPostgres.url ?? "")
            defer { schema.drop() }
            let store = try SimulatedStore(database: schema.url, lane: .manual)
            _ = try store.buyProduct("com.example.pro", account: "default")
            try store.close()
            /// Everything a store keeps in the database, as comparable values.
            func contents() throws -> [String] {
                let database = try LedgerDatabase(url: schema.url)
                return try database.read { txn in
                    var lines = [
                        "format \(try txn.metaInteger(forKey: StoreJournal.formatKey) ?? -1)",
                        "through \(try txn.metaInteger(forKey: StoreTables.Meta.through) ?? -1)",
                    ]
                    for collection in try txn.collections() {
                        for record in try txn.all(in: collection) { lines.append("\(collection) \(record)") }
                    }
                    for entry in try txn.logEntries(in: StoreJournal.logName) { lines.append("log \(entry)") }
                    return lines
                }
            }
            do {
                let database = try LedgerDatabase(url: schema.url)
                try database.write { txn in try txn.setMeta(Int64(3), forKey: StoreJournal.formatKey) }
            }
            let before = try contents()
            do {
                _ = try SimulatedStore(database: schema.url, lane: .manual)
                Issue.record("a newer format opened")
            } catch {
                #expect(error.code == .stateTooNew)
                #expect(error.detail.contains("format 3"), "\(error.detail)")
                #expect(!error.detail.contains(schema.url) || !schema.url.contains("password"))
            }
            #expect(try contents() == before)
        }
    }
#endif
