public import Foundation
import Synchronization

/// A clock that moves only when told: the clock tests and feeds use.
///
/// Moving it does nothing by itself; a store that owns it (``StoreClock``) processes what falls due when the store's
/// own `advance` methods move the clock.
///
/// The clock never shows a time past ``latestDate``: moving it further, by an infinite interval or to an infinite
/// date, stops it there; a NaN interval or date leaves it where it is. Nothing traps on a huge value.
public final class ManualClock: StoreClock {
    /// The instant every manual clock starts at unless told otherwise: 2026-01-01T00:00:00Z.
    public static let defaultStart = Date(timeIntervalSince1970: 1_767_225_600)

    /// The last instant a clock shows: 9999-12-31T23:59:59Z, the last second a four-digit year (and so a receipt's
    /// RFC 3339 date) can name.
    public static let latestDate = Date(timeIntervalSince1970: 253_402_300_799)

    private let current: Mutex<Date>

    /// Creates a clock showing `start` (at most ``latestDate``).
    public init(start: Date = ManualClock.defaultStart) {
        current = Mutex(Self.clamped(start) ?? Self.defaultStart)
    }

    /// The time the clock shows.
    public var now: Date { current.withLock { $0 } }

    /// Moves the clock forward by `interval` seconds (never backwards, never past ``latestDate``).
    public func advance(by interval: TimeInterval) {
        guard interval > 0 else { return }  // also NaN
        current.withLock { now in
            let room = Self.latestDate.timeIntervalSince(now)
            now = interval >= room ? Self.latestDate : now.addingTimeInterval(interval)
        }
    }

    /// Moves the clock to `date` if that is later than the time it shows (to ``latestDate`` at most).
    public func advance(to date: Date) {
        guard let date = Self.clamped(date) else { return }
        current.withLock { $0 = max($0, date) }
    }

    /// `date`, or ``latestDate`` if it is later; `nil` for a NaN date.
    static func clamped(_ date: Date) -> Date? {
        let seconds = date.timeIntervalSinceReferenceDate
        guard !seconds.isNaN else { return nil }
        return seconds > latestDate.timeIntervalSinceReferenceDate ? latestDate : date
    }
}
