/// One record of a collection: a key and the bytes stored under it.
public struct LedgerRecord: Hashable, Sendable {
    /// The record's key, unique within its collection.
    public var key: String
    /// The stored bytes, exactly as they were put.
    public var value: [UInt8]

    /// Creates a record.
    /// - Parameters:
    ///   - key: The record's key.
    ///   - value: The stored bytes.
    public init(key: String, value: [UInt8]) {
        self.key = key
        self.value = value
    }
}
