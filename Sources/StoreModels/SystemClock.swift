public import Foundation

/// The wall clock, optionally running faster than real time.
///
/// This is the only place in OpenStoreKit that reads the system time.
public struct SystemClock: StoreClock {
    /// Store seconds per real second; 1 is real time.
    public let rate: Double
    private let origin: Date

    /// Creates a clock that runs `rate` times faster than real time from the moment it is made.
    public init(rate: Double = 1) {
        self.rate = rate
        self.origin = Date()
    }

    /// The current store time.
    public var now: Date {
        let real = Date()
        guard rate != 1 else { return real }
        return origin.addingTimeInterval(real.timeIntervalSince(origin) * rate)
    }
}
