import Ledger
import Testing

@Suite("One read API for read and write transactions")
struct LedgerTransactionTests {
    /// Reads through whichever transaction it is given.
    static func summary<Access>(_ txn: borrowing LedgerTransaction<Access>) throws -> [String] {
        let values = try txn.all(in: "things").map { "\($0.key)=\(String(decoding: $0.value, as: UTF8.self))" }
        return values + ["meta=\(try txn.metaInteger(forKey: "counter") ?? -1)", "log=\(try txn.logCount(in: "log"))"]
    }

    @Test("A function written once reads a write transaction's own writes and a read transaction's snapshot")
    func sharedReads() throws {
        try TestDatabases.each { db throws in
            let inside = try db.write { txn in
                try txn.put(Array("1".utf8), forKey: "a", in: "things")
                try txn.incrementMeta(forKey: "counter", by: 5)
                try txn.appendLog(Array("entry".utf8), to: "log")
                return try Self.summary(txn)
            }
            #expect(inside == ["a=1", "meta=5", "log=1"])
            #expect(try db.read { txn in try Self.summary(txn) } == inside)
        }
    }
}
