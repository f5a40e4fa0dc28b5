import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Ledger

/// Records completion results in the order they arrive.
final class CompletionLog: Sendable {
    private let entries = Mutex<[(Int, Bool)]>([])

    func completion(_ index: Int) -> @Sendable (Result<Void, LedgerError>) -> Void {
        { result in
            self.entries.withLock {
                if case .success = result { $0.append((index, true)) } else { $0.append((index, false)) }
            }
        }
    }

    var succeeded: [Int] { entries.withLock { $0.filter(\.1).map(\.0) } }
    var failed: [Int] { entries.withLock { $0.filter { !$0.1 }.map(\.0) } }
    var count: Int { entries.withLock { $0.count } }
}

@Suite struct LedgerGroupCommitterTests {
    static func put(_ index: Int) -> (borrowing LedgerWriteTransaction) throws -> Void {
        { txn in try txn.put([UInt8(truncatingIfNeeded: index)], forKey: "k\(index)", in: "c") }
    }

    @Test func acknowledgedGroupsSurviveAKillAndPendingWritesDoNotAppearInPart() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let db = try LedgerDatabase(path: path)
        let committer = LedgerGroupCommitter(database: db, commitEvery: 10)
        let log = CompletionLog()
        for index in 0..<25 {
            try committer.write(Self.put(index), whenDurable: log.completion(index))
        }
        // Two groups were committed and acknowledged, in order; five writes are pending.
        #expect(log.succeeded == Array(0..<20))
        #expect(log.failed.isEmpty)
        #expect(committer.pendingWrites == 5)
        // Reads in this process see the pending writes ...
        #expect(try db.read { txn in try txn.count(in: "c") } == 25)
        // ... but a kill now keeps exactly the acknowledged ones.
        let killed = directory.file("killed.sqlite")
        try snapshotAsIfKilled(path, to: killed)
        let afterKill = try LedgerDatabase(path: killed)
        try afterKill.read { txn throws in
            #expect(try txn.all(in: "c", order: .insertion).map(\.key) == (0..<20).map { "k\($0)" })
        }
        // After a flush, everything is acknowledged and survives.
        try committer.flush()
        #expect(log.succeeded == Array(0..<25))
        #expect(committer.pendingWrites == 0)
        let flushed = directory.file("flushed.sqlite")
        try snapshotAsIfKilled(path, to: flushed)
        #expect(try LedgerDatabase(path: flushed).read { txn in try txn.count(in: "c") } == 25)
    }

    @Test func commitEveryOneAcknowledgesEachWrite() throws {
        try TestDatabases.each { db throws in
            let committer = LedgerGroupCommitter(database: db, commitEvery: 1)
            let log = CompletionLog()
            for index in 0..<3 {
                try committer.write(Self.put(index), whenDurable: log.completion(index))
                #expect(log.succeeded == Array(0...index))
                #expect(committer.pendingWrites == 0)
            }
        }
    }

    @Test func throwingBodyUndoesOnlyItsOwnWrite() throws {
        struct Refused: Error {}
        try TestDatabases.each { db throws in
            let committer = LedgerGroupCommitter(database: db, commitEvery: 100)
            let log = CompletionLog()
            // The first write of a group fails: nothing is pending afterwards.
            #expect(throws: Refused.self) {
                try committer.write(
                    { txn in
                        try txn.put([0], forKey: "first", in: "c")
                        throw Refused()
                    }, whenDurable: log.completion(-1))
            }
            #expect(committer.pendingWrites == 0)
            try committer.write(Self.put(1), whenDurable: log.completion(1))
            // A later write fails: only its own changes are undone, the earlier pending write stays.
            #expect(throws: Refused.self) {
                try committer.write(
                    { txn in
                        try txn.put([9], forKey: "k1", in: "c")
                        try txn.put([2], forKey: "k2", in: "c")
                        throw Refused()
                    }, whenDurable: log.completion(2))
            }
            try committer.write(Self.put(3), whenDurable: log.completion(3))
            #expect(committer.pendingWrites == 2)
            try committer.flush()
            #expect(log.succeeded == [1, 3])
            #expect(log.failed.isEmpty)
            try db.read { txn throws in
                #expect(
                    try txn.all(in: "c", order: .insertion) == [
                        LedgerRecord(key: "k1", value: [1]), LedgerRecord(key: "k3", value: [3]),
                    ])
            }
        }
    }

    @Test func plainWriteJoinsAndCommitsThePendingGroup() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let db = try LedgerDatabase(path: path)
        let committer = LedgerGroupCommitter(database: db, commitEvery: 100)
        let log = CompletionLog()
        for index in 0..<3 { try committer.write(Self.put(index), whenDurable: log.completion(index)) }
        #expect(log.count == 0)
        try db.write(Self.put(3))
        #expect(log.succeeded == [0, 1, 2])
        #expect(committer.pendingWrites == 0)
        let killed = directory.file("killed.sqlite")
        try snapshotAsIfKilled(path, to: killed)
        #expect(try LedgerDatabase(path: killed).read { txn in try txn.count(in: "c") } == 4)
    }

    @Test func throwingPlainWriteLeavesTheGroupPending() throws {
        struct Refused: Error {}
        try TestDatabases.each { db throws in
            let committer = LedgerGroupCommitter(database: db, commitEvery: 100)
            try committer.write(Self.put(0))
            #expect(throws: Refused.self) {
                try db.write { txn in
                    try txn.put([7], forKey: "k0", in: "c")
                    throw Refused()
                }
            }
            #expect(committer.pendingWrites == 1)
            try committer.flush()
            #expect(try db.read { txn in try txn.value(forKey: "k0", in: "c") } == [0])
        }
    }

    @Test func deinitCommitsPendingWrites() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let log = CompletionLog()
        do {
            let db = try LedgerDatabase(path: path)
            let committer = LedgerGroupCommitter(database: db, commitEvery: 100)
            for index in 0..<5 { try committer.write(Self.put(index), whenDurable: log.completion(index)) }
            #expect(log.count == 0)
        }
        #expect(log.succeeded == Array(0..<5))
        #expect(try LedgerDatabase(path: path).read { txn in try txn.count(in: "c") } == 5)
    }

    @Test func failedCommitRollsBackTheGroupAndFailsEveryCompletion() throws {
        let db = try LedgerDatabase.inMemory()
        // A deferred foreign key makes COMMIT itself fail, with the transaction still open.
        try db.withConnection { connection throws(LedgerError) in
            try connection.execute(
                """
                PRAGMA foreign_keys = ON;
                CREATE TABLE parent (id INTEGER PRIMARY KEY);
                CREATE TABLE child (parent INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED);
                """)
        }
        let committer = LedgerGroupCommitter(database: db, commitEvery: 100)
        let log = CompletionLog()
        for index in 0..<3 { try committer.write(Self.put(index), whenDurable: log.completion(index)) }
        try db.withConnection { connection throws(LedgerError) in
            try connection.execute("INSERT INTO child VALUES (42)")
        }
        let error = #expect(throws: LedgerError.self) { try committer.flush() }
        #expect(error?.sqliteExtendedCode == 787)  // SQLITE_CONSTRAINT_FOREIGNKEY
        #expect(log.failed == [0, 1, 2])
        #expect(log.succeeded.isEmpty)
        #expect(committer.pendingWrites == 0)
        // Nothing of the group was applied, and the database goes on working.
        #expect(try db.read { txn in try txn.count(in: "c") } == 0)
        try committer.write(Self.put(5))
        try committer.flush()
        #expect(try db.read { txn in try txn.count(in: "c") } == 1)
    }

    @Test func diskFullLosesTheUnacknowledgedGroupAndSaysSo() throws {
        let db = try LedgerDatabase.inMemory()
        let committer = LedgerGroupCommitter(database: db, commitEvery: 1000)
        let log = CompletionLog()
        try committer.write(Self.put(0), whenDurable: log.completion(0))
        let pages = try db.withConnection { connection throws(LedgerError) in
            try connection.integer("PRAGMA page_count")
        }
        try db.withConnection { connection throws(LedgerError) in
            _ = try connection.integer("PRAGMA max_page_count = \(pages + 2)")
        }
        let big = [UInt8](repeating: 7, count: 64 * 1024)
        let error = #expect(throws: LedgerError(code: .diskFull)) {
            try committer.write({ txn in try txn.put(big, forKey: "big", in: "c") }, whenDurable: log.completion(1))
        }
        #expect(error?.sqliteExtendedCode == 13)  // SQLITE_FULL
        // SQLite rolls the whole transaction back on a full disk: the pending, unacknowledged write 0 is lost, and
        // its completion says so. The failed write's own completion is never called.
        #expect(log.failed == [0])
        #expect(log.succeeded.isEmpty)
        #expect(committer.pendingWrites == 0)
        try committer.write(Self.put(2), whenDurable: log.completion(2))
        try committer.flush()
        #expect(log.succeeded == [2])
        try db.read { txn throws in
            #expect(try txn.all(in: "c", order: .insertion).map(\.key) == ["k2"])
        }
    }

    @Test func bodyThatSwallowsAnAbortCannotCommitHalfAWrite() throws {
        let db = try LedgerDatabase.inMemory()
        let committer = LedgerGroupCommitter(database: db, commitEvery: 1000)
        let pages = try db.withConnection { connection throws(LedgerError) in
            try connection.integer("PRAGMA page_count")
        }
        try db.withConnection { connection throws(LedgerError) in
            _ = try connection.integer("PRAGMA max_page_count = \(pages + 2)")
        }
        let big = [UInt8](repeating: 7, count: 64 * 1024)
        for useGroup in [false, true] {
            let error = #expect(throws: LedgerError(code: .transactionAborted)) {
                let body: (borrowing LedgerWriteTransaction) throws -> Void = { txn in
                    try txn.put([1], forKey: "before", in: "c")
                    do {
                        try txn.put(big, forKey: "big", in: "c")
                    } catch let error as LedgerError {
                        #expect(error.code == .diskFull)
                    }
                    // SQLite has rolled the transaction back; without a guard this would be committed on its own.
                    try txn.put([2], forKey: "after", in: "c")
                }
                if useGroup { try committer.write(body) } else { try db.write(body) }
            }
            #expect(error?.detail.contains("rolled back") == true)
            #expect(try db.read { txn in try txn.count(in: "c") } == 0)
            #expect(committer.pendingWrites == 0)
        }
    }

    @Test func concurrentGroupWritersFromManyTasks() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try LedgerDatabase(path: directory.file("state.sqlite"), options: LedgerOptions(synchronous: .normal))
        let committer = LedgerGroupCommitter(database: db, commitEvery: 16)
        let log = CompletionLog()
        let tasks = 4
        let perTask = 100
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    for index in 0..<perTask {
                        let id = task * perTask + index
                        try committer.write(
                            { txn in
                                try txn.put([UInt8(task)], forKey: "t\(id)", in: "c")
                                try txn.incrementMeta(forKey: "count")
                            }, whenDurable: log.completion(id))
                    }
                }
            }
            try await group.waitForAll()
        }
        try committer.flush()
        #expect(log.count == tasks * perTask)
        #expect(Set(log.succeeded) == Set(0..<(tasks * perTask)))
        try db.read { txn throws in
            #expect(try txn.count(in: "c") == tasks * perTask)
            #expect(try txn.metaInteger(forKey: "count") == Int64(tasks * perTask))
        }
    }

    @Test func groupHoldsTheWriteLockAgainstOtherConnections() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let db = try LedgerDatabase(path: path)
        let other = try LedgerDatabase(path: path, options: LedgerOptions(busyTimeout: .zero))
        let committer = LedgerGroupCommitter(database: db, commitEvery: 100)
        try committer.write(Self.put(0))
        let error = #expect(throws: LedgerError(code: .busy)) { try other.write(Self.put(1)) }
        #expect(error?.detail.contains(path) == true)
        try committer.flush()
        try other.write(Self.put(1))
        #expect(try db.read { txn in try txn.count(in: "c") } == 2)
    }
}
