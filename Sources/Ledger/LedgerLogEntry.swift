/// One entry of an append-only log.
public struct LedgerLogEntry: Hashable, Sendable {
    /// The entry's sequence number. Sequence numbers increase with every append, across all logs of a database, and
    /// are never reused, even after entries are removed or the database is reopened.
    public var sequence: Int64
    /// The appended bytes.
    public var payload: [UInt8]

    /// Creates a log entry.
    /// - Parameters:
    ///   - sequence: The entry's sequence number.
    ///   - payload: The appended bytes.
    public init(sequence: Int64, payload: [UInt8]) {
        self.sequence = sequence
        self.payload = payload
    }
}
