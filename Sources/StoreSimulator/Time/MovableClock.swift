import Foundation
import StoreModels

/// A clock the store can move forward as it handles subscription events: a ``StoreModels/ManualClock``, or a
/// ``TimeRateClock`` (by an offset over the wall clock).
protocol MovableClock: StoreClock {
    /// Moves the clock to `date` if that is later than the time it shows.
    func advance(to date: Date)
}

extension ManualClock: MovableClock {}

extension TimeRateClock: MovableClock {}
