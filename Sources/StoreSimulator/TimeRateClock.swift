public import Foundation
public import StoreModels
import Synchronization

/// The wall clock, running at a rate that can change while it runs: the clock of real-time sessions.
///
/// Changing the rate never makes the clock jump: store time goes on from where it was, at the new speed. The store
/// behind `SKPaymentQueue.default()` uses one, so that a session's `timeRate` speeds it up.
public final class TimeRateClock: StoreClock {
    private struct Anchor {
        var real: Date
        var store: Date
        var rate: Double
    }

    private let anchor: Mutex<Anchor>

    /// Creates a clock showing the current time and running `rate` times faster than the wall clock.
    public init(rate: Double = 1) {
        let now = SystemClock().now
        anchor = Mutex(Anchor(real: now, store: now, rate: max(0, rate)))
    }

    /// Creates a clock running at a session time rate.
    public convenience init(timeRate: TimeRate) {
        self.init(rate: timeRate.clockRate)
    }

    /// The current store time.
    public var now: Date {
        anchor.withLock { Self.time(of: $0, at: SystemClock().now) }
    }

    /// Store seconds per wall-clock second.
    public var rate: Double {
        get { anchor.withLock { $0.rate } }
        set {
            anchor.withLock { anchor in
                let real = SystemClock().now
                anchor = Anchor(real: real, store: Self.time(of: anchor, at: real), rate: max(0, newValue))
            }
        }
    }

    private static func time(of anchor: Anchor, at real: Date) -> Date {
        anchor.store.addingTimeInterval(real.timeIntervalSince(anchor.real) * anchor.rate)
    }
}
