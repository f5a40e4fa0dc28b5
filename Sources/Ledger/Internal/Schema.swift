/// The ledger's schema: the SQL of every version and the migrations between them.
///
/// A Ledger database is recognised by `PRAGMA application_id` (``applicationID``) and versioned by
/// `PRAGMA user_version`. A new database is created at version 1 and then migrated step by step, so every migration
/// runs on every new database as well as on old files. All steps run inside one transaction.
/// docs/durable-state.md describes each version.
enum Schema {
    /// `PRAGMA application_id` of every Ledger database: the ASCII bytes "OSKL".
    static let applicationID: Int64 = 0x4F53_4B4C

    /// The schema version this release writes.
    static let currentVersion = 2

    /// Version 1, as first released: keyed records in named collections, a meta key/value table and an append-only
    /// log with a sequence that is never reused.
    static let version1 = """
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

    /// Migrations: `migrations[n]` takes a database from version `n + 1` to version `n + 2`.
    static let migrations: [String] = [
        // 1 -> 2: stamps, keys with the time they were first recorded, for things done exactly once. The table is
        // named for the first of them, deliveries; files of version 2 have it under that name, so it keeps it.
        """
        CREATE TABLE deliveries (
            transaction_id TEXT PRIMARY KEY NOT NULL,
            delivered_at REAL NOT NULL
        ) WITHOUT ROWID;
        PRAGMA user_version = 2;
        """
    ]

    /// The tables each version must have (checked on open, after migration).
    static func tables(forVersion version: Int) -> Set<String> {
        var tables: Set<String> = ["records", "meta", "log"]
        if version >= 2 { tables.insert("deliveries") }
        return tables
    }
}
