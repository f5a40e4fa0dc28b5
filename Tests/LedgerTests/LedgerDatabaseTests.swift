import Foundation
import Ledger
import TestSupport
import Testing

@Suite struct LedgerDatabaseTests {
    @Test func putGetRemove() throws {
        try TestDatabases.each { db throws in
            try db.write { txn in
                try txn.put("one".bytes, forKey: "a", in: "things")
                try txn.put(Data("two".utf8), forKey: "b", in: "things")
                try txn.put([UInt8](), forKey: "empty", in: "things")
                try txn.put("other".bytes, forKey: "a", in: "others")
            }
            try db.read { txn throws in
                #expect(try txn.value(forKey: "a", in: "things") == "one".bytes)
                #expect(try txn.value(forKey: "b", in: "things") == "two".bytes)
                #expect(try txn.value(forKey: "empty", in: "things") == [])
                #expect(try txn.value(forKey: "missing", in: "things") == nil)
                #expect(try txn.value(forKey: "a", in: "others") == "other".bytes)
                #expect(try txn.containsValue(forKey: "empty", in: "things"))
                #expect(try !txn.containsValue(forKey: "a", in: "nowhere"))
                #expect(try txn.count(in: "things") == 3)
                #expect(try txn.count(in: "nowhere") == 0)
                #expect(try txn.collections() == ["others", "things"])
            }
            let removed = try db.write { txn in
                (try txn.remove(forKey: "a", in: "things"), try txn.remove(forKey: "a", in: "things"))
            }
            #expect(removed == (true, false))
            #expect(try db.write { txn in try txn.removeAll(in: "things") } == 2)
            #expect(try db.read { txn in try txn.count(in: "things") } == 0)
            #expect(try db.read { txn in try txn.count(in: "others") } == 1)
        }
    }

    @Test func keyOrderAndInsertionOrder() throws {
        try TestDatabases.each { db throws in
            try db.write { txn in
                for key in ["m", "b", "z", "a"] { try txn.put(key.bytes, forKey: key, in: "c") }
                try txn.put("b2".bytes, forKey: "b", in: "c")  // replacing keeps the place
                try txn.remove(forKey: "z", in: "c")
                try txn.put("z2".bytes, forKey: "z", in: "c")  // removed and put again: moves to the end
            }
            try db.read { txn throws in
                #expect(try txn.all(in: "c", order: .key).map(\.key) == ["a", "b", "m", "z"])
                #expect(try txn.all(in: "c", order: .insertion).map(\.key) == ["m", "b", "a", "z"])
                #expect(try txn.all(in: "c").first { $0.key == "b" }?.value == "b2".bytes)
                var seen: [String] = []
                try txn.forEach(in: "c", order: .insertion) { key, value throws in
                    seen.append(key)
                    // Nested reads while iterating work.
                    #expect(try txn.value(forKey: key, in: "c") == value)
                    #expect(try txn.count(in: "c") == 4)
                }
                #expect(seen == ["m", "b", "a", "z"])
            }
        }
    }

    @Test func forEachStopsWhenBodyThrows() throws {
        struct Stop: Error {}
        try TestDatabases.each { db throws in
            try db.write { txn in
                for index in 0..<10 { try txn.put([UInt8(index)], forKey: "k\(index)", in: "c") }
            }
            var visited = 0
            #expect(throws: Stop.self) {
                try db.read { txn throws in
                    try txn.forEach(in: "c") { _, _ in
                        visited += 1
                        if visited == 3 { throw Stop() }
                    }
                }
            }
            #expect(visited == 3)
            // The database is usable afterwards and the statement was reset.
            #expect(try db.read { txn in try txn.all(in: "c").count } == 10)
        }
    }

    @Test func reopenKeepsEverything() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let when = Date(timeIntervalSinceReferenceDate: 789_012_345.678_901)
        do {
            let db = try LedgerDatabase(path: path)
            try db.write { txn in
                for index in 0..<100 { try txn.put("value \(index)".bytes, forKey: "key\(index)", in: "records") }
                try txn.setMeta(Int64(42), forKey: "counter")
                try txn.setMeta(12.5, forKey: "clock")
                try txn.setMeta("hello", forKey: "name")
                try txn.setMeta([1, 2, 3] as [UInt8], forKey: "blob")
                try txn.appendLog("first".bytes, to: "events")
                try txn.stamp(forKey: "1000000001", at: when)
            }
        }
        let db = try LedgerDatabase(path: path)
        try db.read { txn throws in
            #expect(try txn.count(in: "records") == 100)
            #expect(try txn.value(forKey: "key57", in: "records") == "value 57".bytes)
            #expect(try txn.metaInteger(forKey: "counter") == 42)
            #expect(try txn.metaDouble(forKey: "clock") == 12.5)
            #expect(try txn.metaString(forKey: "name") == "hello")
            #expect(try txn.metaBytes(forKey: "blob") == [1, 2, 3])
            #expect(try txn.logEntries(in: "events").map(\.payload) == ["first".bytes])
            #expect(try txn.containsStamp(forKey: "1000000001"))
            #expect(try txn.stampDate(forKey: "1000000001") == when)
        }
        #expect(db.path == path)
    }

    @Test func pathIsMadeAbsoluteAndNormalized() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try LedgerDatabase(path: directory.path + "/sub/../state.sqlite")
        #expect(db.path == directory.file("state.sqlite"))
        #expect(FileManager.default.fileExists(atPath: directory.file("state.sqlite")))
        let inMemory = try LedgerDatabase.inMemory()
        #expect(inMemory.path == nil)
    }

    @Test func throwingBodyAppliesNothing() throws {
        struct Refused: Error, Equatable { let reason: String }
        try TestDatabases.each { db throws in
            try db.write { txn in try txn.put("kept".bytes, forKey: "k", in: "c") }
            #expect(throws: Refused(reason: "midway")) {
                try db.write { txn in
                    try txn.put("changed".bytes, forKey: "k", in: "c")
                    try txn.put("new".bytes, forKey: "n", in: "c")
                    try txn.setMeta(Int64(1), forKey: "m")
                    try txn.appendLog("e".bytes, to: "log")
                    try txn.stamp(forKey: "t", at: Date(timeIntervalSinceReferenceDate: 0))
                    // The transaction sees its own writes before it fails.
                    #expect(try txn.value(forKey: "k", in: "c") == "changed".bytes)
                    throw Refused(reason: "midway")
                }
            }
            try db.read { txn throws in
                #expect(try txn.value(forKey: "k", in: "c") == "kept".bytes)
                #expect(try txn.value(forKey: "n", in: "c") == nil)
                #expect(try txn.metaInteger(forKey: "m") == nil)
                #expect(try txn.logCount(in: "log") == 0)
                #expect(try !txn.containsStamp(forKey: "t"))
            }
        }
    }

    @Test func throwingBodyAppliesNothingAfterReopen() throws {
        struct Refused: Error {}
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        do {
            let db = try LedgerDatabase(path: path)
            try db.write { txn in try txn.put("kept".bytes, forKey: "k", in: "c") }
            _ = try? db.write { txn in
                try txn.put("changed".bytes, forKey: "k", in: "c")
                throw Refused()
            }
        }
        let db = try LedgerDatabase(path: path)
        #expect(try db.read { txn in try txn.value(forKey: "k", in: "c") } == "kept".bytes)
    }

    @Test func metaTypesAndCounters() throws {
        try TestDatabases.each { db throws in
            let ids = try db.write { txn in
                [
                    try txn.incrementMeta(forKey: "ids"), try txn.incrementMeta(forKey: "ids"),
                    try txn.incrementMeta(forKey: "ids", by: 10),
                ]
            }
            #expect(ids == [1, 2, 12])
            try db.write { txn in
                try txn.setMeta("text", forKey: "s")
                try txn.setMeta(3.0, forKey: "d")
            }
            try db.read { txn throws in
                #expect(try txn.metaInteger(forKey: "ids") == 12)
                #expect(try txn.metaDouble(forKey: "d") == 3.0)
                #expect(throws: LedgerError(code: .typeMismatch)) { try txn.metaInteger(forKey: "s") }
                #expect(throws: LedgerError(code: .typeMismatch)) { try txn.metaInteger(forKey: "d") }
                #expect(throws: LedgerError(code: .typeMismatch)) { try txn.metaString(forKey: "ids") }
                #expect(try txn.metaString(forKey: "missing") == nil)
            }
            #expect(throws: LedgerError(code: .typeMismatch)) {
                try db.write { txn in try txn.incrementMeta(forKey: "s") }
            }
            #expect(try db.write { txn in try txn.removeMeta(forKey: "s") })
            #expect(try db.read { txn in try txn.metaString(forKey: "s") } == nil)
        }
    }

    @Test func logSequencesIncreaseAndAreNeverReused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        var sequences: [Int64] = []
        do {
            let db = try LedgerDatabase(path: path)
            try db.write { txn in
                for index in 0..<5 { sequences.append(try txn.appendLog([UInt8(index)], to: "events")) }
                sequences.append(try txn.appendLog("other".bytes, to: "audit"))
            }
            #expect(sequences == sequences.sorted() && Set(sequences).count == 6)
            try db.read { txn throws in
                #expect(try txn.logEntries(in: "events").map(\.payload) == [[0], [1], [2], [3], [4]])
                #expect(
                    try txn.logEntries(in: "events", after: sequences[1], limit: 2).map(\.sequence)
                        == [sequences[2], sequences[3]])
                #expect(try txn.lastLogSequence(in: "events") == sequences[4])
                #expect(try txn.lastLogSequence(in: "empty") == nil)
                #expect(try txn.logCount(in: "audit") == 1)
            }
            // Compact everything, including the newest entry of every log.
            #expect(try db.write { txn in try txn.removeLogEntries(in: "events", through: sequences[4]) } == 5)
            #expect(try db.write { txn in try txn.removeLogEntries(in: "audit", through: .max) } == 1)
        }
        let db = try LedgerDatabase(path: path)
        let next = try db.write { txn in try txn.appendLog("after".bytes, to: "events") }
        #expect(next > sequences.max()!)
        #expect(try db.read { txn in try txn.logEntries(in: "events").map(\.sequence) } == [next])
    }

    @Test func stampsAreRecordedOnce() throws {
        try TestDatabases.each { db throws in
            let first = Date(timeIntervalSinceReferenceDate: 1000)
            let later = Date(timeIntervalSinceReferenceDate: 2000)
            #expect(try db.read { txn in try txn.containsStamp(forKey: "T1") } == false)
            #expect(try db.write { txn in try txn.stamp(forKey: "T1", at: first) })
            #expect(try db.write { txn in try txn.stamp(forKey: "T1", at: later) } == false)
            try db.read { txn throws in
                #expect(try txn.containsStamp(forKey: "T1"))
                #expect(try txn.stampDate(forKey: "T1") == first)
                #expect(try txn.stampDate(forKey: "T2") == nil)
            }
        }
    }

    @Test func exactlyOnceGrantPattern() throws {
        // The pattern app code uses: check, grant and mark in one write. Repeating it (as after a crash before
        // finishing) grants nothing more.
        try TestDatabases.each { db throws in
            func deliver(_ id: String) throws -> Bool {
                try db.write { txn in
                    guard try !txn.containsStamp(forKey: id) else { return false }
                    let coins = try txn.metaInteger(forKey: "coins") ?? 0
                    try txn.setMeta(coins + 100, forKey: "coins")
                    return try txn.stamp(forKey: id, at: Date(timeIntervalSinceReferenceDate: 5))
                }
            }
            #expect(try deliver("T1"))
            #expect(try deliver("T1") == false)
            #expect(try deliver("T2"))
            #expect(try db.read { txn in try txn.metaInteger(forKey: "coins") } == 200)
        }
    }

    @Test func acknowledgedWritesSurviveAKill() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let db = try LedgerDatabase(path: path, options: LedgerOptions(synchronous: .normal))
        for index in 0..<50 {
            try db.write { txn in try txn.put([UInt8(index)], forKey: "k\(index)", in: "c") }
        }
        // The database is still open (nothing checkpointed or closed): copy the files as a kill would leave them.
        let copy = directory.file("after-kill.sqlite")
        try snapshotAsIfKilled(path, to: copy)
        let reopened = try LedgerDatabase(path: copy)
        try reopened.read { txn throws in
            #expect(try txn.count(in: "c") == 50)
            #expect(try txn.value(forKey: "k49", in: "c") == [49])
        }
        _ = db
    }

    @Test func concurrentReadersAndWriters() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try LedgerDatabase(path: directory.file("state.sqlite"), options: LedgerOptions(synchronous: .normal))
        let writers = 4
        let perWriter = 50
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    for index in 0..<perWriter {
                        try db.write { txn in
                            try txn.put([UInt8(writer), UInt8(index)], forKey: "w\(writer)-\(index)", in: "c")
                            try txn.incrementMeta(forKey: "total")
                        }
                    }
                }
                group.addTask {
                    for _ in 0..<perWriter {
                        // Every snapshot is consistent: the counter equals the number of records.
                        try db.read { txn throws in
                            let count = try txn.count(in: "c")
                            let total = try txn.metaInteger(forKey: "total") ?? 0
                            #expect(Int64(count) == total)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        try db.read { txn throws in
            #expect(try txn.count(in: "c") == writers * perWriter)
            #expect(try txn.metaInteger(forKey: "total") == Int64(writers * perWriter))
            #expect(try txn.value(forKey: "w3-49", in: "c") == [3, 49])
        }
    }

    @Test func nonContiguousSequencesAreStored() throws {
        try TestDatabases.each { db throws in
            try db.write { txn in
                try txn.put((1...5).map { UInt8($0) }.lazy.map { $0 * 2 }, forKey: "lazy", in: "c")
                try txn.put(Data([9, 8, 7])[1...], forKey: "slice", in: "c")
            }
            try db.read { txn throws in
                #expect(try txn.value(forKey: "lazy", in: "c") == [2, 4, 6, 8, 10])
                #expect(try txn.value(forKey: "slice", in: "c") == [8, 7])
            }
        }
    }

    @Test func unicodeKeysAndCollectionsRoundTrip() throws {
        try TestDatabases.each { db throws in
            let key = "clé-🔑-\u{0}-end"
            try db.write { txn in try txn.put("v".bytes, forKey: key, in: "collection ü") }
            try db.read { txn throws in
                #expect(try txn.value(forKey: key, in: "collection ü") == "v".bytes)
                #expect(try txn.all(in: "collection ü").map(\.key) == [key])
                #expect(try txn.value(forKey: "clé-🔑-", in: "collection ü") == nil)
            }
        }
    }
}
