public import Foundation

/// The source of "now" for a store. Nothing in OpenStoreKit reads the wall clock except ``SystemClock``.
public protocol StoreClock: Sendable {
    /// The current time.
    var now: Date { get }
}
