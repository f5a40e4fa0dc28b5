import Foundation
import Synchronization
import Testing

@testable import Ledger

@Suite struct LedgerErrorTests {
    @Test func codesHaveStableNumbers() {
        let codes: [(LedgerError.Code, Int, String)] = [
            (.cannotOpen, 1, "cannotOpen"), (.notADatabase, 2, "notADatabase"), (.corrupt, 3, "corrupt"),
            (.newerSchema, 4, "newerSchema"), (.notALedger, 5, "notALedger"), (.migrationFailed, 6, "migrationFailed"),
            (.busy, 7, "busy"), (.readOnly, 8, "readOnly"), (.diskFull, 9, "diskFull"), (.ioError, 10, "ioError"),
            (.typeMismatch, 11, "typeMismatch"), (.transactionAborted, 12, "transactionAborted"),
            (.sqliteFailure, 13, "sqliteFailure"), (.reentrantCall, 14, "reentrantCall"),
        ]
        for (code, number, name) in codes {
            #expect(code.rawValue == number)
            #expect(code.description == name)
        }
    }

    @Test func equalityIsByCodeOnly() {
        let a = LedgerError(code: .corrupt, detail: "one", path: "/a", sqliteExtendedCode: 11)
        let b = LedgerError(code: .corrupt, detail: "two", path: "/b", sqliteExtendedCode: 267)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != LedgerError(code: .busy))
        #expect(a.description == "LedgerError.corrupt (3): one")
    }

    @Test func sqliteResultCodesMapByNumberNotByMessage() {
        // Primary and extended codes (SQLITE_CORRUPT_INDEX 779, SQLITE_IOERR_FSYNC 1034, SQLITE_BUSY_SNAPSHOT 517,
        // SQLITE_READONLY_DBMOVED 1032, SQLITE_CANTOPEN_ISDIR 526, SQLITE_CONSTRAINT_UNIQUE 2067).
        let cases: [(Int32, LedgerError.Code)] = [
            (11, .corrupt), (779, .corrupt), (26, .notADatabase), (5, .busy), (517, .busy), (6, .busy),
            (8, .readOnly), (1032, .readOnly), (13, .diskFull), (10, .ioError), (1034, .ioError),
            (14, .cannotOpen), (526, .cannotOpen), (3, .cannotOpen), (2067, .sqliteFailure), (1, .sqliteFailure),
        ]
        for (rc, code) in cases {
            #expect(LedgerError.code(forSQLite: rc) == code, "result code \(rc)")
            let error = LedgerError.sqlite(rc, database: nil, path: "/data/state.sqlite", context: "Testing")
            #expect(error.code == code)
            #expect(error.sqliteExtendedCode == Int(rc))
            #expect(error.path == "/data/state.sqlite")
            #expect(error.detail.contains("'/data/state.sqlite'"))
            #expect(error.detail.contains("extended result code \(rc)"))
        }
    }

    @Test func extendedCodesAreReportedForStatementErrors() throws {
        let connection = try Connection(path: nil)
        try connection.execute("CREATE TABLE t (k TEXT UNIQUE); INSERT INTO t VALUES ('a');")
        let error = #expect(throws: LedgerError(code: .sqliteFailure)) {
            try connection.execute("INSERT INTO t VALUES ('a')")
        }
        #expect(error?.sqliteExtendedCode == 2067)  // SQLITE_CONSTRAINT_UNIQUE, not just 19
        #expect(error?.path == nil)
        #expect(error?.detail.contains("in-memory database") == true)
    }

    @Test func valueLargerThanTheLimitIsRefusedAndNothingIsApplied() throws {
        let db = try LedgerDatabase.inMemory()
        try db.withConnection { connection throws(LedgerError) in connection.limitLength(to: 1000) }
        let error = #expect(throws: LedgerError(code: .sqliteFailure)) {
            try db.write { txn in
                try txn.put([1], forKey: "small", in: "c")
                try txn.put([UInt8](repeating: 0, count: 5000), forKey: "big", in: "c")
            }
        }
        #expect(error?.sqliteExtendedCode == 18)  // SQLITE_TOOBIG
        #expect(error?.detail.contains("too big") == true)
        #expect(try db.read { txn in try txn.count(in: "c") } == 0)
    }

    @Test func statementsAreCachedAndReused() throws {
        let connection = try Connection(path: nil)
        try connection.execute(Schema.version1)
        let first = try connection.statement(.count)
        #expect(try connection.statement(.count) === first)
        // A statement part-way through its rows is not handed out again: nested use gets a fresh one.
        try connection.execute("INSERT INTO records (collection, key, value) VALUES ('c', 'a', x''), ('c', 'b', x'')")
        let iterating = try connection.statement(.allByKey)
        withUTF8("c") { iterating.bindText($0, at: 1) }
        #expect(try iterating.step())
        let nested = try connection.statement(.allByKey)
        #expect(nested !== iterating)
        iterating.reset()
        #expect(try connection.statement(.allByKey) === iterating)
    }

    @Test func callingBackIntoTheDatabaseFromABodyIsAnError() throws {
        let db = try LedgerDatabase.inMemory()
        let committer = LedgerGroupCommitter(database: db, commitEvery: 10)
        #expect(throws: LedgerError(code: .reentrantCall)) {
            try db.write { txn in
                try txn.put([1], forKey: "k", in: "c")
                _ = try db.read { inner in try inner.count(in: "c") }
            }
        }
        #expect(throws: LedgerError(code: .reentrantCall)) {
            try db.read { _ in try db.write { txn in try txn.put([1], forKey: "k", in: "c") } }
        }
        #expect(throws: LedgerError(code: .reentrantCall)) {
            try committer.write { _ in try committer.flush() }
        }
        // Nothing was applied, and the database still works from the outside.
        #expect(try db.read { txn in try txn.count(in: "c") } == 0)
        #expect(committer.pendingWrites == 0)
    }

    @Test func completionsMayUseTheDatabase() throws {
        let db = try LedgerDatabase.inMemory()
        let committer = LedgerGroupCommitter(database: db, commitEvery: 1)
        let seen = Mutex<Int?>(nil)
        try committer.write(
            { txn in try txn.put([1], forKey: "k", in: "c") },
            whenDurable: { _ in
                let count = try? db.read { txn in try txn.count(in: "c") }
                seen.withLock { $0 = count }
            })
        #expect(seen.withLock { $0 } == 1)
    }
}
