public import Foundation
import Synchronization

/// A clock that moves only when told: the clock tests and feeds use.
///
/// Moving it does nothing by itself; a store that owns it (``StoreClock``) processes what falls due when the store's
/// own `advance` methods move the clock.
public final class ManualClock: StoreClock {
    /// The instant every manual clock starts at unless told otherwise: 2026-01-01T00:00:00Z.
    public static let defaultStart = Date(timeIntervalSince1970: 1_767_225_600)

    private let current: Mutex<Date>

    /// Creates a clock showing `start`.
    public init(start: Date = ManualClock.defaultStart) {
        current = Mutex(start)
    }

    /// The time the clock shows.
    public var now: Date { current.withLock { $0 } }

    /// Moves the clock forward by `interval` seconds (never backwards).
    public func advance(by interval: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(max(0, interval)) }
    }

    /// Moves the clock to `date` if that is later than the time it shows.
    public func advance(to date: Date) {
        current.withLock { $0 = max($0, date) }
    }
}
