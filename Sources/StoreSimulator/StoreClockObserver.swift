public import Foundation
import Synchronization

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

/// The clock observers of a store, held weakly.
final class ClockObservers: Sendable {
    private struct Entry {
        weak var observer: (any StoreClockObserver)?
    }

    private let entries = Mutex<[Entry]>([])

    /// Adds an observer once; forgets observers that are gone.
    func add(_ observer: any StoreClockObserver) {
        entries.withLock { entries in
            entries.removeAll { $0.observer == nil || $0.observer === observer }
            entries.append(Entry(observer: observer))
        }
    }

    /// Removes an observer.
    func remove(_ observer: any StoreClockObserver) {
        entries.withLock { entries in entries.removeAll { $0.observer == nil || $0.observer === observer } }
    }

    /// The observers still alive, in the order they were added.
    var current: [any StoreClockObserver] { entries.withLock { $0.compactMap(\.observer) } }
}
