import Synchronization

/// Remembers which transactions' content was delivered, so a transaction redelivered after a crash between delivering
/// and finishing is not granted twice.
///
/// A durable journal records the delivery before the transaction is finished; the in-memory one only survives as long
/// as the process.
public protocol DeliveryJournal: Sendable {
    /// Whether the content of a transaction was delivered.
    func isDelivered(_ transactionID: String) -> Bool
    /// Records that a transaction's content was delivered. When it returns, the record must survive a crash.
    func markDelivered(_ transactionID: String) throws
}

/// A journal kept in memory.
public final class InMemoryDeliveryJournal: DeliveryJournal {
    private let delivered = Mutex(Set<String>())

    /// Creates an empty journal.
    public init() {}

    /// Whether the content of a transaction was delivered.
    public func isDelivered(_ transactionID: String) -> Bool { delivered.withLock { $0.contains(transactionID) } }

    /// Records a delivery.
    public func markDelivered(_ transactionID: String) { delivered.withLock { _ = $0.insert(transactionID) } }

    /// How many deliveries are recorded.
    public var count: Int { delivered.withLock { $0.count } }
}
