public import StoreSimulator

extension SKTestSession {
    /// How fast time runs in the test environment, with Apple's raw values: the store's own rate
    /// (`StoreSimulator.TimeRate`), whose cases are StoreKit Test's.
    ///
    /// On a manual clock the rate only sets how long grace periods and billing retry last; on the clock of real-time
    /// runs it also sets how fast the clock runs (a monthly period lasts what the case's name says).
    public typealias TimeRate = StoreSimulator.TimeRate
}
