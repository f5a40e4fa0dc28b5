#if Postgres
    import Foundation
    import TestSupport
    import Testing

    @testable import Ledger

    /// Schemas that are refused on open are left exactly as they were: nothing is written before the checks.
    @Suite("Refused databases on a PostgreSQL server are untouched", .requiresPostgres)
    struct LedgerPostgresRefusalTests {
        /// Every relation of the schema and every row of its `ledger_*` tables, as text.
        static func dump(_ url: String) throws -> [String] {
            let names = try LedgerDatabase.runOnServer(
                url,
                "SELECT relname::text, relkind::text FROM pg_class WHERE relnamespace = current_schema()::regnamespace "
                    + "ORDER BY relname"
            ).map { "\($0[0] ?? "")/\($0[1] ?? "")" }
            var rows = names
            for name in names where name.hasSuffix("/r") {
                let table = String(name.dropLast(2))
                rows += try LedgerDatabase.runOnServer(
                    url, "SELECT coalesce(string_agg(t::text, ';' ORDER BY t::text), '') FROM \(table) t"
                ).map { "\(table): \($0[0] ?? "")" }
            }
            return rows
        }

        /// Creates a database with some data in every table.
        static func populate(_ url: String) throws {
            let db = try LedgerDatabase(url: url)
            try db.write { txn in
                try txn.put("v".bytes, forKey: "k", in: "c")
                try txn.setMeta(Int64(3), forKey: "n")
                try txn.appendLog([1], to: "log")
                try txn.stamp(forKey: "T", at: Date(timeIntervalSinceReferenceDate: 1))
            }
        }

        @Test(arguments: [
            ("UPDATE ledger_identity SET application_id = 1", LedgerError.Code.notALedger),
            ("UPDATE ledger_identity SET schema_version = 99", .newerSchema),
            ("DROP TABLE ledger_stamps", .corrupt),
            ("DROP TABLE ledger_identity", .corrupt),
            ("DELETE FROM ledger_identity", .corrupt),
            ("ALTER TABLE ledger_identity RENAME COLUMN schema_version TO other", .notALedger),
            ("ALTER TABLE ledger_meta ALTER COLUMN integer_value TYPE numeric", .corrupt),
            ("ALTER TABLE ledger_records RENAME COLUMN value TO other", .corrupt),
            ("ALTER TABLE ledger_log DROP COLUMN payload", .corrupt),
        ])
        func refusedAndUntouched(change: String, code: LedgerError.Code) throws {
            try TestDatabases.withServerSchema { url in
                try Self.populate(url)
                try LedgerDatabase.runOnServer(url, change)
                let before = try Self.dump(url)
                var checked = false
                let error = try #require(throws: LedgerError.self) {
                    try LedgerDatabase(url: url) { _ in checked = true }
                }
                #expect(error.code == code)
                #expect(error.path == LedgerDatabase.location(ofServerURL: url))
                #expect(!checked)
                #expect(try Self.dump(url) == before)
            }
        }

        @Test func aForeignTableOfTheSameNameIsNotALedger() throws {
            try TestDatabases.withServerSchema { url in
                try LedgerDatabase.runOnServer(
                    url, "CREATE TABLE ledger_identity (x integer); INSERT INTO ledger_identity VALUES (1)")
                let before = try Self.dump(url)
                #expect(throws: LedgerError(code: .notALedger)) { try LedgerDatabase(url: url) }
                #expect(try Self.dump(url) == before)
            }
        }

        @Test func theCheckSeesTheDataAndItsRefusalChangesNothing() throws {
            struct Refused: Error {}
            try TestDatabases.withServerSchema { url in
                try Self.populate(url)
                let before = try Self.dump(url)
                #expect(throws: Refused.self) {
                    try LedgerDatabase(url: url) { txn in
                        #expect(try txn.value(forKey: "k", in: "c") == "v".bytes)
                        #expect(try txn.metaInteger(forKey: "n") == 3)
                        throw Refused()
                    }
                }
                #expect(try Self.dump(url) == before)
                // The refused open released the database.
                var checked = false
                _ = try LedgerDatabase(url: url) { _ in checked = true }
                #expect(checked)
            }
        }

        @Test func theCheckIsNotCalledForANewDatabase() throws {
            try TestDatabases.withServerSchema { url in
                var checked = false
                let db = try LedgerDatabase(url: url) { _ in checked = true }
                #expect(!checked)
                #expect(try db.read { txn in try txn.collections() } == [])
                let tables = try Self.dump(url).filter { $0.hasSuffix("/r") }
                #expect(
                    tables == [
                        "ledger_identity/r", "ledger_log/r", "ledger_meta/r", "ledger_records/r", "ledger_stamps/r",
                    ])
                #expect(
                    try LedgerDatabase.runOnServer(url, "SELECT application_id, schema_version FROM ledger_identity")
                        == [["\(0x4F53_4B4C)", "\(LedgerDatabase.currentSchemaVersion)"]])
            }
        }
    }
#endif
