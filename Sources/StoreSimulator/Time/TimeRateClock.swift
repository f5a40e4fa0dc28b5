public import Foundation
public import StoreModels
import Synchronization

/// The wall clock, running at a rate that can change while it runs, and that can be moved forward: the clock of
/// real-time sessions.
///
/// Changing the rate never makes the clock jump: store time goes on from where it was, at the new speed. Moving it
/// forward (``advance(to:)``, which ``SimulatedStore/advance(to:)`` uses) adds an offset over the wall clock, which then
/// keeps running from the new time. The store behind `SKPaymentQueue.default()` uses one, so that a session's
/// `timeRate` speeds it up and `SKTestSession.advance(by:)` moves it.
///
/// Like `ManualClock`, it never shows a time past `ManualClock.latestDate`.
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
        anchor = Mutex(Anchor(real: now, store: now, rate: Self.validRate(rate)))
    }

    /// Creates a clock running at a session time rate.
    public convenience init(timeRate: TimeRate) {
        self.init(rate: timeRate.clockRate)
    }

    /// The current store time.
    public var now: Date {
        anchor.withLock { Self.time(of: $0, at: SystemClock().now) }
    }

    /// Store seconds per wall-clock second (a negative, NaN or infinite rate counts as 0: the clock stands still).
    public var rate: Double {
        get { anchor.withLock { $0.rate } }
        set {
            anchor.withLock { anchor in
                let real = SystemClock().now
                anchor = Anchor(real: real, store: Self.time(of: anchor, at: real), rate: Self.validRate(newValue))
            }
        }
    }

    /// Moves the clock forward to `date` if that is later than the time it shows (to
    /// `ManualClock.latestDate` at most); it then runs on from there at its rate.
    public func advance(to date: Date) {
        let seconds = date.timeIntervalSinceReferenceDate
        guard !seconds.isNaN else { return }
        let target = min(date, ManualClock.latestDate)
        anchor.withLock { anchor in
            let real = SystemClock().now
            let shown = Self.time(of: anchor, at: real)
            guard target > shown else { return }
            anchor = Anchor(real: real, store: target, rate: anchor.rate)
        }
    }

    /// Moves the clock forward by `interval` seconds (never backwards); see ``advance(to:)``.
    public func advance(by interval: TimeInterval) {
        guard interval > 0 else { return }  // also NaN
        let now = self.now
        let room = ManualClock.latestDate.timeIntervalSince(now)
        advance(to: interval >= room ? ManualClock.latestDate : now.addingTimeInterval(interval))
    }

    /// Drops the offset ``advance(to:)`` added: the clock shows the wall-clock time again, at its rate.
    package func returnToWallClock() {
        anchor.withLock { anchor in
            let real = SystemClock().now
            anchor = Anchor(real: real, store: real, rate: anchor.rate)
        }
    }

    private static func validRate(_ rate: Double) -> Double {
        rate.isFinite ? max(0, rate) : 0
    }

    private static func time(of anchor: Anchor, at real: Date) -> Date {
        let elapsed = real.timeIntervalSince(anchor.real) * anchor.rate
        let room = ManualClock.latestDate.timeIntervalSince(anchor.store)
        return elapsed >= room ? ManualClock.latestDate : anchor.store.addingTimeInterval(elapsed)
    }
}
