#if Postgres
    import TestSupport
    import Testing

    @testable import Ledger

    /// Rows of a server database altered by hand are reported, naming the table and the row, not read as a value.
    @Suite("Hand-altered rows of a database on a PostgreSQL server", .requiresPostgres)
    struct LedgerPostgresHostileRowTests {
        @Test(arguments: [
            "UPDATE ledger_meta SET real_value = NULL WHERE key = 'time'::bytea",
            "UPDATE ledger_meta SET kind = 99 WHERE key = 'time'::bytea",
        ])
        func aMetaRowWithoutItsValueIsCorrupt(change: String) throws {
            try TestDatabases.withServerSchema { url in
                do {
                    let db = try LedgerDatabase(url: url)
                    try db.write { txn in try txn.setMeta(2.5, forKey: "time") }
                }
                try LedgerDatabase.runOnServer(url, change)
                let db = try LedgerDatabase(url: url)
                let error = try #require(throws: LedgerError.self) {
                    try db.read { txn in try txn.metaDouble(forKey: "time") }
                }
                #expect(error.code == .corrupt)
                #expect(error.detail.contains("ledger_meta"))
                #expect(error.detail.contains("'time'"))
                #expect(error.path == LedgerDatabase.location(ofServerURL: url))
            }
        }
    }
#endif
