public import Foundation

/// A read-write view of the database inside ``LedgerDatabase/write(_:)`` or
/// ``LedgerGroupCommitter/write(_:whenDurable:)``: a ``LedgerTransaction`` that reads as a read transaction does and
/// writes.
///
/// Everything done through one transaction is applied together or not at all. Reads see the transaction's own
/// writes. The value is non-copyable and only borrowed by the body, so it cannot outlive the transaction; pass it on
/// as `borrowing LedgerWriteTransaction`.
public typealias LedgerWriteTransaction = LedgerTransaction<LedgerReadWrite>

extension LedgerTransaction where Access == LedgerReadWrite {
    // MARK: Writing records

    /// Stores `value` under `key` in `collection`, replacing any value already there (which keeps its place in
    /// insertion order). Contiguous byte sequences (`[UInt8]`, `Data`, slices) are bound without copying.
    /// - Parameters:
    ///   - value: The bytes to store (may be empty).
    ///   - key: The key, unique within the collection; compared by its UTF-8 bytes.
    ///   - collection: The collection's name; collections need no declaration.
    /// - Throws: ``LedgerError`` if SQLite fails.
    @inlinable
    public func put(_ value: some Sequence<UInt8>, forKey key: String, in collection: String) throws(LedgerError) {
        // Inlinable so that the caller's sequence type is specialized: no generic dispatch per write.
        let inPlace = value.withContiguousStorageIfAvailable { buffer in
            Result { () throws(LedgerError) in try putBytes(UnsafeRawBufferPointer(buffer), forKey: key, in: collection)
            }
        }
        if let inPlace { return try inPlace.get() }
        try putBytes(Array(value), forKey: key, in: collection)
    }

    /// Stores `bytes` under `key` in `collection` (the non-generic part of ``put(_:forKey:in:)``).
    @usableFromInline
    func putBytes(_ bytes: UnsafeRawBufferPointer, forKey key: String, in collection: String) throws(LedgerError) {
        try store.put(bytes, key: key, collection: collection)
    }

    /// Stores a copy of `bytes` (for sequences that are not contiguous).
    @usableFromInline
    func putBytes(_ bytes: [UInt8], forKey key: String, in collection: String) throws(LedgerError) {
        try withBytes(bytes) { (raw) throws(LedgerError) in try store.put(raw, key: key, collection: collection) }
    }

    /// Removes the value under `key` in `collection`.
    /// - Returns: Whether there was a value to remove.
    /// - Throws: ``LedgerError`` if SQLite fails.
    @discardableResult
    public func remove(forKey key: String, in collection: String) throws(LedgerError) -> Bool {
        try store.remove(key: key, collection: collection)
    }

    /// Removes every record of `collection`.
    /// - Returns: The number of records removed.
    /// - Throws: ``LedgerError`` if SQLite fails.
    @discardableResult
    public func removeAll(in collection: String) throws(LedgerError) -> Int {
        try store.removeAll(collection: collection)
    }

    // MARK: Writing meta

    /// Stores an integer in the meta table under `key`, replacing any value there.
    /// - Throws: ``LedgerError`` if SQLite fails.
    public func setMeta(_ value: Int64, forKey key: String) throws(LedgerError) {
        try store.setMeta(key: key, .integer(value))
    }

    /// Stores a double in the meta table under `key`, replacing any value there.
    /// - Throws: ``LedgerError`` if SQLite fails.
    public func setMeta(_ value: Double, forKey key: String) throws(LedgerError) {
        try store.setMeta(key: key, .double(value))
    }

    /// Stores a string in the meta table under `key`, replacing any value there.
    /// - Throws: ``LedgerError`` if SQLite fails.
    public func setMeta(_ value: String, forKey key: String) throws(LedgerError) {
        try withUTF8(value) { (text) -> Result<Void, LedgerError> in
            Result { () throws(LedgerError) in try store.setMeta(key: key, .text(text)) }
        }.get()
    }

    /// Stores bytes in the meta table under `key`, replacing any value there.
    /// - Throws: ``LedgerError`` if SQLite fails.
    public func setMeta(_ value: some Sequence<UInt8>, forKey key: String) throws(LedgerError) {
        try withBytes(value) { (bytes) throws(LedgerError) in
            try store.setMeta(key: key, .bytes(bytes))
        }
    }

    /// Removes the meta value under `key`.
    /// - Returns: Whether there was a value to remove.
    /// - Throws: ``LedgerError`` if SQLite fails.
    @discardableResult
    public func removeMeta(forKey key: String) throws(LedgerError) -> Bool {
        try store.removeMeta(key: key)
    }

    /// Adds `delta` to the integer meta value under `key` (a missing value counts as 0) and returns the new value.
    /// Use it for identifier counters: an identifier handed out by a committed write is never handed out again.
    /// - Throws: ``LedgerError/Code/typeMismatch`` if the value there is not an integer.
    @discardableResult
    public func incrementMeta(forKey key: String, by delta: Int64 = 1) throws(LedgerError) -> Int64 {
        try store.incrementMeta(key: key, by: delta)
    }

    // MARK: Writing the log

    /// Appends `payload` to the log `name`.
    /// - Returns: The entry's sequence number, greater than every sequence ever handed out in this database.
    /// - Throws: ``LedgerError`` if SQLite fails.
    @discardableResult
    @inlinable
    public func appendLog(_ payload: some Sequence<UInt8>, to name: String) throws(LedgerError) -> Int64 {
        let inPlace = payload.withContiguousStorageIfAvailable { buffer in
            Result { () throws(LedgerError) in try appendLogBytes(UnsafeRawBufferPointer(buffer), to: name) }
        }
        if let inPlace { return try inPlace.get() }
        return try appendLogBytes(Array(payload), to: name)
    }

    /// Appends `bytes` to the log `name` (the non-generic part of ``appendLog(_:to:)``).
    @usableFromInline
    func appendLogBytes(_ bytes: UnsafeRawBufferPointer, to name: String) throws(LedgerError) -> Int64 {
        try store.appendLog(bytes, name: name)
    }

    /// Appends a copy of `bytes` (for sequences that are not contiguous).
    @usableFromInline
    func appendLogBytes(_ bytes: [UInt8], to name: String) throws(LedgerError) -> Int64 {
        try withBytes(bytes) { (raw) throws(LedgerError) in try store.appendLog(raw, name: name) }
    }

    /// Removes the entries of the log `name` whose sequence is at most `sequence` (compaction). Their sequence
    /// numbers are not reused.
    /// - Returns: The number of entries removed.
    /// - Throws: ``LedgerError`` if SQLite fails.
    @discardableResult
    public func removeLogEntries(in name: String, through sequence: Int64) throws(LedgerError) -> Int {
        try store.removeLogEntries(name: name, through: sequence)
    }

    // MARK: Writing stamps

    /// Stamps `key` with `date`, once: the first stamp of a key stays, and a later one changes nothing.
    ///
    /// Stamps record that something happened exactly once (a purchase's content granted, a step carried out). Do the
    /// thing in the same write, or check ``containsStamp(forKey:)`` first, so that a crash in between never does it
    /// twice. Stamps share one namespace per database, apart from collections.
    /// - Parameters:
    ///   - key: What happened; compared by its UTF-8 bytes.
    ///   - date: When it happened (from the caller's clock).
    /// - Returns: `true` if this call stamped the key, `false` if it was stamped already.
    /// - Throws: ``LedgerError`` if SQLite fails.
    @discardableResult
    public func stamp(forKey key: String, at date: Date) throws(LedgerError) -> Bool {
        try store.stamp(key: key, at: date.timeIntervalSinceReferenceDate)
    }
}
