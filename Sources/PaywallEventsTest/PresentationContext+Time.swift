public import Foundation
import OpenStoreKit
public import PaywallEvents
import Purchases
public import StoreSimulator

extension PresentationContext {
    /// The simulated store behind the purchase module's queue, for a harness that controls it.
    public var store: SimulatedStore { purchases.queue.store }

    /// Runs the store's lane and the scheduled work that is due, until neither has anything left.
    public func runUntilIdle() {
        repeat {
            store.runUntilIdle()
        } while scheduler.runDue() > 0 || store.lane.pendingCount > 0
    }

    /// Moves the store's clock forward by `interval` seconds. Scheduled work runs at its own moment: the clock is
    /// moved to it (subscription events on the way are handled), the lane is run, the work runs, and so on to the end.
    public func advance(by interval: TimeInterval) {
        let end = store.now.addingTimeInterval(max(0, interval))
        runUntilIdle()
        while let due = scheduler.nextDueDate, due <= end {
            _ = try? store.advance(to: due)  // a due date of scheduled work
            runUntilIdle()
        }
        _ = try? store.advance(to: end)
        runUntilIdle()
    }
}
