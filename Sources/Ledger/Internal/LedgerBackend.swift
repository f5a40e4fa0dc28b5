/// The connection a ``LedgerDatabase`` owns: to an SQLite file (or in-memory database), or with the trait `Postgres`
/// to a PostgreSQL server. It runs the transaction verbs the database's write paths use and says what errors name.
enum LedgerBackend: Sendable {
    case file(Connection)
    #if Postgres
        case server(ServerConnection)
    #endif

    /// The record store of a transaction on this connection.
    var store: LedgerStore {
        switch self {
        case .file(let connection): .file(FileStore(connection: connection))
        #if Postgres
            case .server(let connection): .server(ServerStore(connection: connection))
        #endif
        }
    }

    /// Runs a transaction verb (`BEGIN`, `COMMIT`, a savepoint...).
    func run(_ verb: LedgerSQL) throws(LedgerError) {
        switch self {
        case .file(let connection): try connection.run(verb)
        #if Postgres
            case .server(let connection): try connection.run(verb)
        #endif
        }
    }

    /// Whether a transaction that can still be written and committed is open. An SQLite transaction that SQLite rolled
    /// back, or a PostgreSQL transaction aborted by an error, is not.
    var isInTransaction: Bool {
        switch self {
        case .file(let connection): connection.isInTransaction
        #if Postgres
            case .server(let connection): connection.isInTransaction
        #endif
        }
    }

    /// Whether `ROLLBACK TO` the open savepoint can undo a failed write and keep the transaction: SQLite's
    /// transaction must still be open; PostgreSQL's may also be aborted (its savepoint undoes the abort).
    var canRollBackToSavepoint: Bool {
        switch self {
        case .file(let connection): connection.isInTransaction
        #if Postgres
            case .server(let connection): connection.hasTransaction
        #endif
        }
    }

    /// Ends any open transaction, usable or aborted, undoing it.
    func rollback() {
        switch self {
        case .file(let connection): if connection.isInTransaction { try? connection.run(.rollback) }
        #if Postgres
            case .server(let connection): if connection.hasTransaction { try? connection.run(.rollback) }
        #endif
        }
    }

    /// The engine, as messages name it.
    var engine: String {
        switch self {
        case .file: "SQLite"
        #if Postgres
            case .server: "PostgreSQL"
        #endif
        }
    }

    /// What errors put in ``LedgerError/path``: the file, the server URL without password, or `nil` in memory.
    var errorPath: String? {
        switch self {
        case .file(let connection): connection.path
        #if Postgres
            case .server(let connection): connection.location
        #endif
        }
    }

    /// The database as messages name it: `'<path>'`, `'<URL>'` or "the in-memory database".
    var place: String { errorPath.map { "'\($0)'" } ?? "the in-memory database" }
}
