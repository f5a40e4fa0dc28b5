import Foundation

@testable import Ledger

/// A database as the first release of Ledger's schema left it.
enum LedgerVersion1 {
    /// The version-1 schema exactly as first released.
    static let schema = """
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

    /// Creates a version-1 database holding an application's record.
    static func makeDatabase(at path: String) throws {
        let connection = try Connection(path: path)
        _ = try connection.textColumn("PRAGMA journal_mode = WAL")
        try connection.execute("BEGIN")
        try connection.execute(schema)
        try connection.execute("INSERT INTO records (collection, key, value) VALUES ('transactions', 't1', x'0101');")
        try connection.execute("COMMIT")
    }
}
