import StoreSimulator

extension SKTestSession {
    /// How fast time runs in the test environment, with Apple's raw values.
    ///
    /// On a manual clock the rate only sets how long grace periods and billing retry last; on the clock of real-time
    /// runs it also sets how fast the clock runs (a monthly period lasts what the case's name says).
    public enum TimeRate: Int, Sendable, Hashable, CaseIterable {
        /// Real time.
        case realTime = 0
        /// One hour is one day (deprecated by Apple in iOS 15.2).
        case oneHourIsOneDay = 1
        /// Thirty minutes are one day (deprecated by Apple in iOS 15.2).
        case thirtyMinutesIsOneDay = 2
        /// Five minutes are one day (deprecated by Apple in iOS 15.2).
        case fiveMinutesIsOneDay = 3
        /// One minute is one day (deprecated by Apple in iOS 15.2).
        case oneMinuteIsOneDay = 4
        /// Thirty seconds are one day (deprecated by Apple in iOS 15.2).
        case thirtySecondsIsOneDay = 5
        /// One second is one day (deprecated by Apple in iOS 15.2).
        case oneSecondIsOneDay = 6
        /// A monthly subscription renews every hour.
        case monthlyRenewalEveryHour = 10
        /// A monthly subscription renews every thirty minutes.
        case monthlyRenewalEveryThirtyMinutes = 11
        /// A monthly subscription renews every fifteen minutes.
        case monthlyRenewalEveryFifteenMinutes = 12
        /// A monthly subscription renews every five minutes.
        case monthlyRenewalEveryFiveMinutes = 13
        /// A monthly subscription renews every thirty seconds.
        case monthlyRenewalEveryThirtySeconds = 15
        /// Every subscription renews every fifteen minutes.
        case oneRenewalEveryFifteenMinutes = 1000
        /// Every subscription renews every five minutes.
        case oneRenewalEveryFiveMinutes = 1001
        /// Every subscription renews every minute.
        case oneRenewalEveryMinute = 1002
        /// Every subscription renews every thirty seconds.
        case oneRenewalEveryThirtySeconds = 1003
        /// Every subscription renews every ten seconds.
        case oneRenewalEveryTenSeconds = 1004
        /// Every subscription renews every two seconds.
        case oneRenewalEveryTwoSeconds = 1005

        /// The store's rate with the same raw value.
        var storeRate: StoreSimulator.TimeRate { StoreSimulator.TimeRate(rawValue: rawValue) ?? .realTime }
    }
}
