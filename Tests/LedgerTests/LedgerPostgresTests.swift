#if Postgres
    import Foundation
    import Ledger
    import TestSupport
    import Testing

    @Suite("Ledger databases on a PostgreSQL server", .requiresPostgres)
    struct LedgerPostgresTests {
        @Test func smoke() throws {
            try TestDatabases.withServerSchema { url in
                let db = try LedgerDatabase(url: url)
                try db.write { txn in
                    try txn.put(Array("one".utf8), forKey: "a", in: "things")
                    try txn.setMeta(Int64(5), forKey: "n")
                    try txn.appendLog([1, 2, 3], to: "log")
                }
                try db.read { txn throws in
                    #expect(try txn.value(forKey: "a", in: "things") == Array("one".utf8))
                    #expect(try txn.metaInteger(forKey: "n") == 5)
                    #expect(try txn.logEntries(in: "log").map(\.payload) == [[1, 2, 3]])
                }
            }
        }
    }
#endif
