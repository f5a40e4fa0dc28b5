import Foundation
import TestSupport
import Testing

@testable import Ledger

@Suite struct LedgerSchemaTests {
    /// The version-1 schema exactly as the first release shipped it. Migrations must keep working from this text, so
    /// it is frozen here rather than read from the current sources.
    static let shippedVersion1 = """
        CREATE TABLE records (
            id INTEGER PRIMARY KEY,
            collection TEXT NOT NULL,
            key TEXT NOT NULL,
            value BLOB NOT NULL,
            UNIQUE (collection, key)
        );
        CREATE TABLE meta (
            key TEXT PRIMARY KEY NOT NULL,
            value NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE log (
            sequence INTEGER PRIMARY KEY AUTOINCREMENT,
            name TEXT NOT NULL,
            payload BLOB NOT NULL
        );
        CREATE INDEX log_by_name ON log (name);
        PRAGMA application_id = 1330858828;
        PRAGMA user_version = 1;
        """

    @Test func version1IsFrozen() {
        #expect(Schema.version1 == Self.shippedVersion1)
        #expect(Schema.currentVersion == LedgerDatabase.currentSchemaVersion)
        #expect(Schema.migrations.count == Schema.currentVersion - 1)
    }

    /// Builds a database as release 1 would have left it, with some data.
    static func makeVersion1Database(at path: String) throws {
        let connection = try Connection(path: path)
        _ = try connection.textColumn("PRAGMA journal_mode = WAL")
        try connection.execute("BEGIN")
        try connection.execute(shippedVersion1)
        try connection.execute(
            """
            INSERT INTO records (collection, key, value) VALUES
                ('transactions', 't2', x'0202'), ('transactions', 't1', x'0101'), ('accounts', 'a', x'');
            INSERT INTO meta (key, value) VALUES ('clock', 1234.5), ('next-id', 17), ('name', 'store');
            INSERT INTO log (name, payload) VALUES ('events', x'01'), ('events', x'02'), ('audit', x'03');
            DELETE FROM log WHERE payload = x'02';
            """)
        try connection.execute("COMMIT")
    }

    @Test func migratesVersion1WithDataIntact() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("v1.sqlite")
        try Self.makeVersion1Database(at: path)
        #expect(try Connection(path: path).integer("PRAGMA user_version") == 1)

        let db = try LedgerDatabase(path: path)
        try db.read { txn throws in
            #expect(try txn.all(in: "transactions", order: .insertion).map(\.key) == ["t2", "t1"])
            #expect(try txn.value(forKey: "t1", in: "transactions") == [1, 1])
            #expect(try txn.value(forKey: "a", in: "accounts") == [])
            #expect(try txn.metaDouble(forKey: "clock") == 1234.5)
            #expect(try txn.metaInteger(forKey: "next-id") == 17)
            #expect(try txn.metaString(forKey: "name") == "store")
            #expect(try txn.logEntries(in: "events").map(\.payload) == [[1]])
            #expect(try !txn.containsStamp(forKey: "t1"))
        }
        // Version 2 features work, and the log sequence continues past the deleted entry.
        let sequence = try db.write { txn in
            try txn.stamp(forKey: "t1", at: Date(timeIntervalSinceReferenceDate: 10))
            #expect(try txn.incrementMeta(forKey: "next-id") == 18)
            return try txn.appendLog([4], to: "events")
        }
        #expect(sequence == 4)
        #expect(try db.read { txn in try txn.containsStamp(forKey: "t1") })
        #expect(try Connection(path: path).integer("PRAGMA user_version") == 2)
    }

    @Test func migrationFailureRollsBackAndKeepsVersion1() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("v1.sqlite")
        try Self.makeVersion1Database(at: path)
        // Something in the way of the migration: a table that version 2 creates already exists.
        try Connection(path: path).execute("CREATE TABLE deliveries (x)")
        let error = #expect(throws: LedgerError(code: .migrationFailed)) { try LedgerDatabase(path: path) }
        #expect(error?.detail.contains(path) == true)
        #expect(error?.detail.contains("from schema version 1 to 2") == true)
        let check = try Connection(path: path)
        #expect(try check.integer("PRAGMA user_version") == 1)
        #expect(try check.integer("SELECT count(*) FROM records") == 3)
    }

    @Test func newDatabaseHasCurrentSchema() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("new.sqlite")
        _ = try LedgerDatabase(path: path)
        let connection = try Connection(path: path)
        #expect(try connection.integer("PRAGMA user_version") == Int64(Schema.currentVersion))
        #expect(try connection.integer("PRAGMA application_id") == Schema.applicationID)
        #expect(try connection.textColumn("PRAGMA journal_mode") == ["wal"])
        let tables = Set(try connection.textColumn("SELECT name FROM sqlite_schema WHERE type = 'table'"))
        #expect(Schema.tables(forVersion: Schema.currentVersion).isSubset(of: tables))
    }

    @Test func newerSchemaIsRefusedAndUntouched() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("future.sqlite")
        do {
            let db = try LedgerDatabase(path: path)
            try db.write { txn in try txn.put([1], forKey: "k", in: "c") }
        }
        try Connection(path: path).execute("PRAGMA user_version = 3")
        let before = contents(of: path)
        let error = #expect(throws: LedgerError(code: .newerSchema)) { try LedgerDatabase(path: path) }
        #expect(error?.path == path)
        #expect(error?.detail.contains(path) == true)
        #expect(error?.detail.contains("schema version 3") == true)
        #expect(error?.detail.contains("1 to 2") == true)
        #expect(contents(of: path) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["future.sqlite"])
        #expect(try Connection(path: path).integer("PRAGMA user_version") == 3)
    }

    @Test func newerSchemaInAnUncheckpointedLogIsRefusedAndUntouched() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("live.sqlite")
        let db = try LedgerDatabase(path: path)
        try db.write { txn in try txn.put([1], forKey: "k", in: "c") }
        // A newer release bumped the version; its process was killed before any checkpoint.
        try Connection(path: path).execute("PRAGMA user_version = 7")
        let copy = directory.file("copy.sqlite")
        try snapshotAsIfKilled(path, to: copy)
        let mainBefore = contents(of: copy)
        let logBefore = contents(of: copy + "-wal")
        #expect(logBefore?.isEmpty == false)
        #expect(throws: LedgerError(code: .newerSchema)) { try LedgerDatabase(path: copy) }
        #expect(contents(of: copy) == mainBefore)
        #expect(contents(of: copy + "-wal") == logBefore)
        _ = db
    }
}
