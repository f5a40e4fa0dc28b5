public import Foundation

/// The wall clock.
///
/// This is the only place in OpenStoreKit that reads the system time; clocks that run faster than real time
/// (`TimeRateClock` in StoreSimulator) read it through this one.
public struct SystemClock: StoreClock {
    /// Creates the wall clock.
    public init() {}

    /// The current time.
    public var now: Date { Date() }
}
