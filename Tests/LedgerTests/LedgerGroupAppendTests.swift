import Foundation
import TestSupport
import Testing

@testable import Ledger

/// `LedgerGroupCommitter.appendLog`: a group write of one log entry, without a savepoint.
@Suite struct LedgerGroupAppendTests {
    @Test func appendsJoinGroupsAndOnlyAcknowledgedOnesSurviveAKill() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let db = try LedgerDatabase(path: path)
        let committer = LedgerGroupCommitter(database: db, commitEvery: 4)
        let log = CompletionLog()
        var sequences: [Int64] = []
        for index in 0..<10 {
            sequences.append(try committer.appendLog([UInt8(index)], to: "events", whenDurable: log.completion(index)))
        }
        #expect(sequences == Array(1...10))
        #expect(log.succeeded == Array(0..<8))
        #expect(committer.pendingWrites == 2)
        #expect(try db.read { txn in try txn.logCount(in: "events") } == 10)
        let killed = directory.file("killed.sqlite")
        try snapshotAsIfKilled(path, to: killed)
        #expect(
            try LedgerDatabase(path: killed).read { txn in try txn.logEntries(in: "events") }.map(\.payload)
                == (0..<8).map { [UInt8($0)] })
        try committer.flush()
        #expect(log.succeeded == Array(0..<10))
    }

    @Test func appendsMixWithWritesThatThrow() throws {
        try TestDatabases.each { db throws in
            let committer = LedgerGroupCommitter(database: db, commitEvery: 100)
            struct Refused: Error {}
            try committer.appendLog([1], to: "events")
            #expect(throws: Refused.self) {
                try committer.write { txn in
                    try txn.appendLog([2], to: "events")
                    throw Refused()
                }
            }
            try committer.appendLog(Data([3]), to: "events")  // any contiguous bytes
            try committer.appendLog([4].lazy.map { $0 }, to: "events")  // and sequences that are not contiguous
            #expect(committer.pendingWrites == 3)
            // A plain write joins the group and commits it.
            try db.write { txn in try txn.setMeta(Int64(1), forKey: "written") }
            #expect(committer.pendingWrites == 0)
            #expect(try db.read { txn in try txn.logEntries(in: "events") }.map(\.payload) == [[1], [3], [4]])
        }
    }
}
