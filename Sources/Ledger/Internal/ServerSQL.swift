#if Postgres
    /// Every statement a ``ServerStore`` runs, each prepared once per connection (``ServerConnection/execute(_:_:)``)
    /// under the name `ledger_<case>`. Parameters are cast explicitly, so that binary values have a known type; keys and
    /// names are bound as their UTF-8 bytes.
    enum ServerSQL: Int, CaseIterable {
        case put
        case get
        case contains
        case remove
        case removeAll
        case count
        case allByKey
        case allByInsertion
        case collections

        case metaSetInteger
        case metaSetDouble
        case metaSetText
        case metaSetBytes
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
            case .put:
                "INSERT INTO ledger_records (collection, key, value) VALUES ($1::bytea, $2::bytea, $3::bytea) "
                    + "ON CONFLICT (collection, key) DO UPDATE SET value = excluded.value"
            case .get: "SELECT value FROM ledger_records WHERE collection = $1::bytea AND key = $2::bytea"
            case .contains: "SELECT 1 FROM ledger_records WHERE collection = $1::bytea AND key = $2::bytea"
            case .remove: "DELETE FROM ledger_records WHERE collection = $1::bytea AND key = $2::bytea"
            case .removeAll: "DELETE FROM ledger_records WHERE collection = $1::bytea"
            case .count: "SELECT count(*) FROM ledger_records WHERE collection = $1::bytea"
            case .allByKey: "SELECT key, value FROM ledger_records WHERE collection = $1::bytea ORDER BY key"
            case .allByInsertion: "SELECT key, value FROM ledger_records WHERE collection = $1::bytea ORDER BY id"
            case .collections: "SELECT DISTINCT collection FROM ledger_records ORDER BY collection"

            case .metaSetInteger: Self.metaSet(kind: 1, "$2::int8, NULL, NULL")
            case .metaSetDouble: Self.metaSet(kind: 2, "NULL, $2::float8, NULL")
            case .metaSetText: Self.metaSet(kind: 3, "NULL, NULL, $2::bytea")
            case .metaSetBytes: Self.metaSet(kind: 4, "NULL, NULL, $2::bytea")
            case .metaGet: "SELECT kind, integer_value, real_value, bytes_value FROM ledger_meta WHERE key = $1::bytea"
            case .metaRemove: "DELETE FROM ledger_meta WHERE key = $1::bytea"
            // Adds only to an integer, and only without overflow: a refused addition returns no row (an error would
            // abort the whole transaction).
            case .metaIncrement:
                "INSERT INTO ledger_meta AS m (key, kind, integer_value) VALUES ($1::bytea, 1, $2::int8) "
                    + "ON CONFLICT (key) DO UPDATE SET integer_value = m.integer_value + excluded.integer_value "
                    + "WHERE m.kind = 1 AND NOT ((excluded.integer_value > 0 AND m.integer_value > "
                    + "9223372036854775807 - excluded.integer_value) OR (excluded.integer_value < 0 AND "
                    + "m.integer_value < -9223372036854775808 - excluded.integer_value)) RETURNING m.integer_value"

            case .logAppend: "INSERT INTO ledger_log (name, payload) VALUES ($1::bytea, $2::bytea) RETURNING sequence"
            case .logEntries:
                "SELECT sequence, payload FROM ledger_log WHERE name = $1::bytea AND sequence > $2::int8 "
                    + "ORDER BY sequence LIMIT $3::int8"
            case .logLast: "SELECT max(sequence) FROM ledger_log WHERE name = $1::bytea"
            case .logCount: "SELECT count(*) FROM ledger_log WHERE name = $1::bytea"
            case .logRemoveThrough: "DELETE FROM ledger_log WHERE name = $1::bytea AND sequence <= $2::int8"

            case .stampInsert:
                "INSERT INTO ledger_stamps (key, stamped_at) VALUES ($1::bytea, $2::float8) ON CONFLICT (key) DO NOTHING"
            case .stampGet: "SELECT stamped_at FROM ledger_stamps WHERE key = $1::bytea"
            }
        }

        /// The upsert of a meta value of `kind` (SQLite's type code), its three value columns given by `values`.
        private static func metaSet(kind: Int, _ values: String) -> String {
            "INSERT INTO ledger_meta (key, kind, integer_value, real_value, bytes_value) VALUES ($1::bytea, \(kind), "
                + "\(values)) ON CONFLICT (key) DO UPDATE SET kind = excluded.kind, integer_value = "
                + "excluded.integer_value, real_value = excluded.real_value, bytes_value = excluded.bytes_value"
        }
    }
#endif
