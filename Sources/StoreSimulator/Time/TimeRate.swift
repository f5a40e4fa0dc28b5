public import Foundation
public import StoreModels

/// How fast time runs in a test session, with the raw values of StoreKit Test's `SKTestSession.TimeRate`.
///
/// A store computes every date in store time: a monthly subscription bought on January 1 expires on February 1
/// whatever the rate. The rate says how fast store time runs against the wall clock in real-time runs
/// (``clockRate``, used by ``TimeRateClock``), and how long grace periods and billing retry last
/// (``gracePeriod(for:)``, ``billingRetryPeriod(for:)``). On the manual clock only those durations change.
///
/// Apple's accelerated rates shorten each subscription period separately; here one clock runs faster, chosen so that
/// a one-month period lasts what Apple's table says. Other periods scale with their calendar length (see
/// docs/decisions.md).
public enum TimeRate: Int, Sendable, Hashable, Codable, CaseIterable {
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
    /// Every subscription renews every two seconds: the fastest rate.
    case oneRenewalEveryTwoSeconds = 1005

    private static let day: TimeInterval = 86_400
    private static let month: TimeInterval = 30 * day

    /// How many wall-clock seconds one store day lasts, for the rates Apple defines by days; `nil` for the others.
    private var realSecondsPerDay: TimeInterval? {
        switch self {
        case .realTime: Self.day
        case .oneHourIsOneDay: 3_600
        case .thirtyMinutesIsOneDay: 1_800
        case .fiveMinutesIsOneDay: 300
        case .oneMinuteIsOneDay: 60
        case .thirtySecondsIsOneDay: 30
        case .oneSecondIsOneDay: 1
        default: nil
        }
    }

    /// How many wall-clock seconds a one-month period lasts at this rate.
    public var realSecondsPerMonth: TimeInterval {
        if let perDay = realSecondsPerDay { return perDay * 30 }
        switch self {
        case .monthlyRenewalEveryHour: return 3_600
        case .monthlyRenewalEveryThirtyMinutes: return 1_800
        case .monthlyRenewalEveryFifteenMinutes, .oneRenewalEveryFifteenMinutes: return 900
        case .monthlyRenewalEveryFiveMinutes, .oneRenewalEveryFiveMinutes: return 300
        case .oneRenewalEveryMinute: return 60
        case .monthlyRenewalEveryThirtySeconds, .oneRenewalEveryThirtySeconds: return 30
        case .oneRenewalEveryTenSeconds: return 10
        case .oneRenewalEveryTwoSeconds: return 2
        default: return Self.month
        }
    }

    /// Store seconds per wall-clock second: 1 for real time, 86,400 when a month lasts thirty seconds.
    public var clockRate: Double { Self.month / realSecondsPerMonth }

    /// Whether every subscription renews at the same interval whatever its period (the `oneRenewalEvery…` rates).
    public var renewsAtFixedInterval: Bool { rawValue >= 1000 }

    /// How long the billing grace period lasts, in store seconds, for a subscription with this period.
    ///
    /// Real time (and the rates Apple defines by days): 6 days for weekly subscriptions, 16 for every other period.
    /// `monthlyRenewalEvery…` rates: Apple's tables give half a monthly period (15 store days) and 6 store days for
    /// weekly subscriptions. `oneRenewalEvery…` rates: one period.
    public func gracePeriod(for period: SubscriptionPeriod) -> TimeInterval {
        let weekly = period.approximateSeconds <= 7 * Self.day
        if renewsAtFixedInterval { return period.approximateSeconds }
        if realSecondsPerDay != nil { return (weekly ? 6 : 16) * Self.day }
        return (weekly ? 6 : 15) * Self.day
    }

    /// How long billing retry lasts after a failed renewal, in store seconds: 60 days, or two periods for the
    /// `oneRenewalEvery…` rates.
    public func billingRetryPeriod(for period: SubscriptionPeriod) -> TimeInterval {
        renewsAtFixedInterval ? 2 * period.approximateSeconds : 60 * Self.day
    }

    /// When billing is retried after a failed renewal, in store seconds after it: on days 1, 3, 7, 14, 21, 30 and 45 of
    /// a 60-day billing retry, scaled to ``billingRetryPeriod(for:)``.
    public func billingRetryAttemptOffsets(for period: SubscriptionPeriod) -> [TimeInterval] {
        let scale = billingRetryPeriod(for: period) / (60 * Self.day)
        return [1, 3, 7, 14, 21, 30, 45].map { $0 * Self.day * scale }
    }
}
