public import Foundation

/// A watch on a store's clock (``StoreEnvironment/observeClock(_:)``): the store holds it weakly, so the clock is
/// watched for as long as the owner keeps it and no longer.
public final class StoreClockObservation: Sendable {
    private let onMove: @Sendable (Date) -> Void

    /// Creates an observation calling `onMove`; a store implementing ``StoreEnvironment`` makes one and keeps it
    /// weakly.
    public init(_ onMove: @escaping @Sendable (Date) -> Void) {
        self.onMove = onMove
    }

    /// The clock shows `date`: tells the owner.
    public func clockDidMove(to date: Date) {
        onMove(date)
    }
}
