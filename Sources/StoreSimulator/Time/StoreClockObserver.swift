public import Foundation

/// Hears that a store's clock moved: what app-side code that depends on time (a profile whose access levels end at a
/// subscription's expiry) uses to recompute when time passes.
///
/// A store tells its clock observers after each ``SimulatedStore/advance(to:)`` (also the checks of
/// ``SimulatedStore/startProcessingDueEvents(every:)``), on its ``StoreLane``: the call is queued on the lane once the
/// move is over, behind the device events the move produced (renewals). Observers are held weakly; add one with
/// ``SimulatedStore/addClockObserver(_:)``.
public protocol StoreClockObserver: AnyObject, Sendable {
    /// The store's clock shows `date`, later than or equal to the time of the previous call, with one exception: when a
    /// test session clears its transactions on a store whose clock runs by itself (`SKTestSession.clearTransactions()`
    /// on the store behind `SKPaymentQueue.default()`), that clock returns to the system time, and the next call may
    /// show an earlier date than the one before.
    func store(_ store: SimulatedStore, clockDidMoveTo date: Date)
}
