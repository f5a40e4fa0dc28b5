/// Every statement the ledger runs more than once. Each is compiled once per connection and cached
/// (``Connection/statement(_:)``); the raw value is its slot in the cache.
enum LedgerSQL: Int, CaseIterable {
    case beginImmediate
    case beginDeferred
    case commit
    case rollback
    case savepoint
    case releaseSavepoint
    case rollbackToSavepoint

    case put
    case get
    case contains
    case remove
    case removeAll
    case count
    case allByKey
    case allByInsertion
    case valuesByScan
    case collections

    case metaSet
    case metaGet
    case metaRemove
    case metaIncrement

    case logAppend
    case logEntries
    case logLast
    case logCount
    case logRemoveThrough

    case stampInsert
    case stampGet

    /// The SQL text.
    var text: String {
        switch self {
        case .beginImmediate: "BEGIN IMMEDIATE"
        case .beginDeferred: "BEGIN DEFERRED"
        case .commit: "COMMIT"
        case .rollback: "ROLLBACK"
        case .savepoint: "SAVEPOINT ledger_write"
        case .releaseSavepoint: "RELEASE ledger_write"
        case .rollbackToSavepoint: "ROLLBACK TO ledger_write"

        case .put:
            "INSERT INTO records (collection, key, value) VALUES (?1, ?2, ?3) "
                + "ON CONFLICT (collection, key) DO UPDATE SET value = excluded.value"
        case .get: "SELECT value FROM records WHERE collection = ?1 AND key = ?2"
        case .contains: "SELECT 1 FROM records WHERE collection = ?1 AND key = ?2"
        case .remove: "DELETE FROM records WHERE collection = ?1 AND key = ?2"
        case .removeAll: "DELETE FROM records WHERE collection = ?1"
        case .count: "SELECT count(*) FROM records WHERE collection = ?1"
        case .allByKey: "SELECT key, value FROM records WHERE collection = ?1 ORDER BY key"
        case .allByInsertion: "SELECT key, value FROM records WHERE collection = ?1 ORDER BY id"
        // A scan of the whole table, in storage order: for a collection that holds most of the table, reading it
        // row by row costs less than finding each row through the (collection, key) index.
        case .valuesByScan: "SELECT value FROM records NOT INDEXED WHERE collection = ?1"
        case .collections: "SELECT DISTINCT collection FROM records ORDER BY collection"

        case .metaSet:
            "INSERT INTO meta (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
        case .metaGet: "SELECT value FROM meta WHERE key = ?1"
        case .metaRemove: "DELETE FROM meta WHERE key = ?1"
        case .metaIncrement:
            "INSERT INTO meta (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = value + excluded.value "
                + "WHERE typeof(value) = 'integer' RETURNING value"

        case .logAppend: "INSERT INTO log (name, payload) VALUES (?1, ?2)"
        case .logEntries:
            "SELECT sequence, payload FROM log WHERE name = ?1 AND sequence > ?2 ORDER BY sequence LIMIT ?3"
        case .logLast: "SELECT max(sequence) FROM log WHERE name = ?1"
        case .logCount: "SELECT count(*) FROM log WHERE name = ?1"
        case .logRemoveThrough: "DELETE FROM log WHERE name = ?1 AND sequence <= ?2"

        // Stamps live in the table schema version 2 created for deliveries, under its name and column names.
        case .stampInsert:
            "INSERT INTO deliveries (transaction_id, delivered_at) VALUES (?1, ?2) "
                + "ON CONFLICT (transaction_id) DO NOTHING"
        case .stampGet: "SELECT delivered_at FROM deliveries WHERE transaction_id = ?1"
        }
    }
}
