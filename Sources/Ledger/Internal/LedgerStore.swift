internal import CSQLite

/// The record-store operations of a transaction, shared by ``LedgerReadTransaction`` and ``LedgerWriteTransaction``:
/// on an SQLite connection (``FileStore``) or, with the trait `Postgres`, on a PostgreSQL connection (`ServerStore`).
/// An enum rather than a protocol, so that an SQLite call costs one branch and no dynamic dispatch.
enum LedgerStore {
    case file(FileStore)
    #if Postgres
        case server(ServerStore)
    #endif

    /// A meta value to store, borrowed for the duration of the call.
    enum MetaValue {
        case integer(Int64)
        case double(Double)
        case text(UnsafeBufferPointer<UInt8>)
        case bytes(UnsafeRawBufferPointer)
    }

    // MARK: Records

    func put(_ value: UnsafeRawBufferPointer, key: String, collection: String) throws(LedgerError) {
        switch self {
        case .file(let store): try store.put(value, key: key, collection: collection)
        #if Postgres
            case .server(let store): try store.put(value, key: key, collection: collection)
        #endif
        }
    }

    func value(key: String, collection: String) throws(LedgerError) -> [UInt8]? {
        switch self {
        case .file(let store): try store.value(key: key, collection: collection)
        #if Postgres
            case .server(let store): try store.value(key: key, collection: collection)
        #endif
        }
    }

    func contains(key: String, collection: String) throws(LedgerError) -> Bool {
        switch self {
        case .file(let store): try store.contains(key: key, collection: collection)
        #if Postgres
            case .server(let store): try store.contains(key: key, collection: collection)
        #endif
        }
    }

    func remove(key: String, collection: String) throws(LedgerError) -> Bool {
        switch self {
        case .file(let store): try store.remove(key: key, collection: collection)
        #if Postgres
            case .server(let store): try store.remove(key: key, collection: collection)
        #endif
        }
    }

    func removeAll(collection: String) throws(LedgerError) -> Int {
        switch self {
        case .file(let store): try store.removeAll(collection: collection)
        #if Postgres
            case .server(let store): try store.removeAll(collection: collection)
        #endif
        }
    }

    func count(collection: String) throws(LedgerError) -> Int {
        switch self {
        case .file(let store): try store.count(collection: collection)
        #if Postgres
            case .server(let store): try store.count(collection: collection)
        #endif
        }
    }

    func all(collection: String, order: LedgerOrder) throws(LedgerError) -> [LedgerRecord] {
        switch self {
        case .file(let store): try store.all(collection: collection, order: order)
        #if Postgres
            case .server(let store): try store.all(collection: collection, order: order)
        #endif
        }
    }

    func forEach(collection: String, order: LedgerOrder, _ body: (String, [UInt8]) throws -> Void) throws {
        switch self {
        case .file(let store): try store.forEach(collection: collection, order: order, body)
        #if Postgres
            case .server(let store): try store.forEach(collection: collection, order: order, body)
        #endif
        }
    }

    func forEachValueByScan(collection: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        switch self {
        case .file(let store): try store.forEachValueByScan(collection: collection, body)
        #if Postgres
            case .server(let store): try store.forEachValueByScan(collection: collection, body)
        #endif
        }
    }

    func collections() throws(LedgerError) -> [String] {
        switch self {
        case .file(let store): try store.collections()
        #if Postgres
            case .server(let store): try store.collections()
        #endif
        }
    }

    // MARK: Meta

    func setMeta(key: String, _ value: MetaValue) throws(LedgerError) {
        switch self {
        case .file(let store):
            try store.setMeta(key: key) { statement in
                switch value {
                case .integer(let integer): statement.bind(integer, at: 2)
                case .double(let double): statement.bind(double, at: 2)
                case .text(let text): statement.bindText(text, at: 2)
                case .bytes(let bytes): statement.bindBlob(bytes, at: 2)
                }
            }
        #if Postgres
            case .server(let store): try store.setMeta(key: key, value)
        #endif
        }
    }

    func metaInteger(key: String) throws(LedgerError) -> Int64? {
        switch self {
        case .file(let store): try store.meta(key: key, type: SQLITE_INTEGER) { $0.int64(0) }
        #if Postgres
            case .server(let store): try store.meta(key: key, type: SQLITE_INTEGER) { $0.int64($1) }
        #endif
        }
    }

    func metaDouble(key: String) throws(LedgerError) -> Double? {
        switch self {
        case .file(let store): try store.meta(key: key, type: SQLITE_FLOAT) { $0.double(0) }
        #if Postgres
            case .server(let store): try store.meta(key: key, type: SQLITE_FLOAT) { $0.double($1) }
        #endif
        }
    }

    func metaString(key: String) throws(LedgerError) -> String? {
        switch self {
        case .file(let store): try store.meta(key: key, type: SQLITE_TEXT) { $0.text(0) }
        #if Postgres
            case .server(let store): try store.meta(key: key, type: SQLITE_TEXT) { $0.text($1) }
        #endif
        }
    }

    func metaBytes(key: String) throws(LedgerError) -> [UInt8]? {
        switch self {
        case .file(let store): try store.meta(key: key, type: SQLITE_BLOB) { $0.blob(0) }
        #if Postgres
            case .server(let store): try store.meta(key: key, type: SQLITE_BLOB) { $0.bytes($1) }
        #endif
        }
    }

    func removeMeta(key: String) throws(LedgerError) -> Bool {
        switch self {
        case .file(let store): try store.removeMeta(key: key)
        #if Postgres
            case .server(let store): try store.removeMeta(key: key)
        #endif
        }
    }

    func incrementMeta(key: String, by delta: Int64) throws(LedgerError) -> Int64 {
        switch self {
        case .file(let store): try store.incrementMeta(key: key, by: delta)
        #if Postgres
            case .server(let store): try store.incrementMeta(key: key, by: delta)
        #endif
        }
    }

    // MARK: Log

    func appendLog(_ payload: UnsafeRawBufferPointer, name: String) throws(LedgerError) -> Int64 {
        switch self {
        case .file(let store): try store.appendLog(payload, name: name)
        #if Postgres
            case .server(let store): try store.appendLog(payload, name: name)
        #endif
        }
    }

    func logEntries(name: String, after sequence: Int64, limit: Int) throws(LedgerError) -> [LedgerLogEntry] {
        switch self {
        case .file(let store): try store.logEntries(name: name, after: sequence, limit: limit)
        #if Postgres
            case .server(let store): try store.logEntries(name: name, after: sequence, limit: limit)
        #endif
        }
    }

    func lastLogSequence(name: String) throws(LedgerError) -> Int64? {
        switch self {
        case .file(let store): try store.lastLogSequence(name: name)
        #if Postgres
            case .server(let store): try store.lastLogSequence(name: name)
        #endif
        }
    }

    func logCount(name: String) throws(LedgerError) -> Int {
        switch self {
        case .file(let store): try store.logCount(name: name)
        #if Postgres
            case .server(let store): try store.logCount(name: name)
        #endif
        }
    }

    func removeLogEntries(name: String, through sequence: Int64) throws(LedgerError) -> Int {
        switch self {
        case .file(let store): try store.removeLogEntries(name: name, through: sequence)
        #if Postgres
            case .server(let store): try store.removeLogEntries(name: name, through: sequence)
        #endif
        }
    }

    // MARK: Stamps

    func stamp(key: String, at seconds: Double) throws(LedgerError) -> Bool {
        switch self {
        case .file(let store): try store.stamp(key: key, at: seconds)
        #if Postgres
            case .server(let store): try store.stamp(key: key, at: seconds)
        #endif
        }
    }

    func stampTime(key: String) throws(LedgerError) -> Double? {
        switch self {
        case .file(let store): try store.stampTime(key: key)
        #if Postgres
            case .server(let store): try store.stampTime(key: key)
        #endif
        }
    }
}
