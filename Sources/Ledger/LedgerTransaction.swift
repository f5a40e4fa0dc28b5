public import Foundation

/// A transaction on the database: what ``LedgerReadTransaction`` and ``LedgerWriteTransaction`` are. Reading is the
/// same in both; writing is only in ``LedgerWriteTransaction`` (its `Access` is ``LedgerReadWrite``).
///
/// All reads in one body see one consistent snapshot; in a write transaction they see its own writes. The value is
/// non-copyable and only borrowed by the body, so it cannot outlive the transaction; pass it on as
/// `borrowing LedgerReadTransaction` or `borrowing LedgerWriteTransaction`.
public struct LedgerTransaction<Access: LedgerAccess>: ~Copyable {
    let store: LedgerStore

    // MARK: Records

    /// The bytes stored under `key` in `collection`, or `nil` if there are none.
    /// - Throws: ``LedgerError`` if SQLite fails (for example ``LedgerError/Code/corrupt``).
    public func value(forKey key: String, in collection: String) throws(LedgerError) -> [UInt8]? {
        try store.value(key: key, collection: collection)
    }

    /// Whether `collection` holds a value under `key`.
    /// - Throws: ``LedgerError`` if SQLite fails.
    public func containsValue(forKey key: String, in collection: String) throws(LedgerError) -> Bool {
        try store.contains(key: key, collection: collection)
    }

    /// The number of records in `collection` (0 for a collection that was never written).
    /// - Throws: ``LedgerError`` if SQLite fails.
    public func count(in collection: String) throws(LedgerError) -> Int {
        try store.count(collection: collection)
    }

    /// Every record of `collection`, in `order`.
    /// - Throws: ``LedgerError`` if SQLite fails.
    public func all(in collection: String, order: LedgerOrder = .key) throws(LedgerError) -> [LedgerRecord] {
        try store.all(collection: collection, order: order)
    }

    /// Calls `body` with each record of `collection` in `order`, one at a time, without loading the whole
    /// collection into memory. `body` must not modify `collection`.
    /// - Throws: ``LedgerError`` if SQLite fails, or whatever `body` throws (which stops the iteration).
    public func forEach(
        in collection: String, order: LedgerOrder = .key, _ body: (_ key: String, _ value: [UInt8]) throws -> Void
    ) throws {
        try store.forEach(collection: collection, order: order, body)
    }

    /// Calls `body` with the value of each record of `collection`, in the order the rows are stored in, reading the
    /// whole records table once instead of looking each row up through the index: the fastest way to read a
    /// collection that holds most of the table (for a small collection beside large ones, use
    /// ``forEach(in:order:_:)``). The bytes are valid only during the call. `body` must not modify `collection`.
    /// - Throws: ``LedgerError`` if SQLite fails, or whatever `body` throws (which stops the iteration).
    package func forEachValueByScan(
        in collection: String, _ body: (_ value: UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try store.forEachValueByScan(collection: collection, body)
    }

    /// The names of all collections that hold at least one record, sorted by their UTF-8 bytes.
    /// - Throws: ``LedgerError`` if SQLite fails.
    public func collections() throws(LedgerError) -> [String] {
        try store.collections()
    }

    // MARK: Meta

    /// The integer stored in the meta table under `key`, or `nil` if there is none.
    /// - Throws: ``LedgerError/Code/typeMismatch`` if the value there is not an integer.
    public func metaInteger(forKey key: String) throws(LedgerError) -> Int64? {
        try store.metaInteger(key: key)
    }

    /// The double stored in the meta table under `key`, or `nil` if there is none.
    /// - Throws: ``LedgerError/Code/typeMismatch`` if the value there is not a double.
    public func metaDouble(forKey key: String) throws(LedgerError) -> Double? {
        try store.metaDouble(key: key)
    }

    /// The string stored in the meta table under `key`, or `nil` if there is none.
    /// - Throws: ``LedgerError/Code/typeMismatch`` if the value there is not a string.
    public func metaString(forKey key: String) throws(LedgerError) -> String? {
        try store.metaString(key: key)
    }

    /// The bytes stored in the meta table under `key`, or `nil` if there are none.
    /// - Throws: ``LedgerError/Code/typeMismatch`` if the value there is not bytes.
    public func metaBytes(forKey key: String) throws(LedgerError) -> [UInt8]? {
        try store.metaBytes(key: key)
    }

    // MARK: Log

    /// The entries of the log `name` whose sequence is greater than `sequence`, oldest first, at most `limit`.
    /// - Throws: ``LedgerError`` if SQLite fails.
    public func logEntries(in name: String, after sequence: Int64 = 0, limit: Int = .max) throws(LedgerError)
        -> [LedgerLogEntry]
    {
        try store.logEntries(name: name, after: sequence, limit: limit)
    }

    /// The sequence of the newest entry in the log `name`, or `nil` if it is empty.
    /// - Throws: ``LedgerError`` if SQLite fails.
    public func lastLogSequence(in name: String) throws(LedgerError) -> Int64? {
        try store.lastLogSequence(name: name)
    }

    /// The number of entries in the log `name`.
    /// - Throws: ``LedgerError`` if SQLite fails.
    public func logCount(in name: String) throws(LedgerError) -> Int {
        try store.logCount(name: name)
    }

    // MARK: Stamps

    /// Whether `key` was stamped (`LedgerWriteTransaction.stamp(forKey:at:)`).
    /// - Throws: ``LedgerError`` if SQLite fails.
    public func containsStamp(forKey key: String) throws(LedgerError) -> Bool {
        try store.stampTime(key: key) != nil
    }

    /// When `key` was first stamped, or `nil` if it was not.
    /// - Throws: ``LedgerError`` if SQLite fails.
    public func stampDate(forKey key: String) throws(LedgerError) -> Date? {
        try store.stampTime(key: key).map { Date(timeIntervalSinceReferenceDate: $0) }
    }
}
