import Foundation
import StoreModels
import StoreSimulator
import Testing

private let day: TimeInterval = 86_400
private let week = SubscriptionPeriod(value: 1, unit: .week)
private let month = SubscriptionPeriod(value: 1, unit: .month)
private let year = SubscriptionPeriod(value: 1, unit: .year)

@Suite("Time rates")
struct TimeRateTests {
    @Test("A monthly period lasts what Apple's table says, in wall-clock seconds")
    func monthlyRealDuration() {
        let expected: [TimeRate: TimeInterval] = [
            .realTime: 30 * day, .oneHourIsOneDay: 30 * 3_600, .thirtyMinutesIsOneDay: 30 * 1_800,
            .fiveMinutesIsOneDay: 30 * 300, .oneMinuteIsOneDay: 30 * 60, .thirtySecondsIsOneDay: 30 * 30,
            .oneSecondIsOneDay: 30, .monthlyRenewalEveryHour: 3_600, .monthlyRenewalEveryThirtyMinutes: 1_800,
            .monthlyRenewalEveryFifteenMinutes: 900, .monthlyRenewalEveryFiveMinutes: 300,
            .monthlyRenewalEveryThirtySeconds: 30, .oneRenewalEveryFifteenMinutes: 900,
            .oneRenewalEveryFiveMinutes: 300, .oneRenewalEveryMinute: 60, .oneRenewalEveryThirtySeconds: 30,
            .oneRenewalEveryTenSeconds: 10, .oneRenewalEveryTwoSeconds: 2,
        ]
        #expect(Set(expected.keys) == Set(TimeRate.allCases))
        for (rate, seconds) in expected {
            #expect(rate.realSecondsPerMonth == seconds, "\(rate)")
            #expect(abs(rate.clockRate * seconds - 30 * day) < 1e-6, "\(rate): a month of store time")
        }
        #expect(TimeRate.realTime.clockRate == 1)
        #expect(TimeRate.oneSecondIsOneDay.clockRate == day)
    }

    @Test("Real time: grace 6 days for weekly subscriptions and 16 for others, billing retry 60 days")
    func realTimeDurations() {
        for rate in [TimeRate.realTime, .oneHourIsOneDay, .oneSecondIsOneDay] {
            #expect(rate.gracePeriod(for: week) == 6 * day)
            #expect(rate.gracePeriod(for: month) == 16 * day)
            #expect(rate.gracePeriod(for: year) == 16 * day)
            #expect(rate.billingRetryPeriod(for: month) == 60 * day)
        }
    }

    @Test("Monthly-renewal rates: grace half a month (6 days weekly), billing retry two months")
    func monthlyRenewalDurations() {
        for rate in [TimeRate.monthlyRenewalEveryHour, .monthlyRenewalEveryFifteenMinutes] {
            #expect(rate.gracePeriod(for: week) == 6 * day)
            #expect(rate.gracePeriod(for: month) == 15 * day)
            #expect(rate.billingRetryPeriod(for: year) == 60 * day)
            // In wall-clock time at 15 minutes a month: grace 7.5 minutes, retry 30 minutes, as Apple's table says.
            if rate == .monthlyRenewalEveryFifteenMinutes {
                #expect(rate.gracePeriod(for: month) / rate.clockRate == 450)
                #expect(rate.billingRetryPeriod(for: month) / rate.clockRate == 1_800)
            }
        }
    }

    @Test("Fixed-interval rates: grace one period, billing retry two")
    func fixedIntervalDurations() {
        for rate in TimeRate.allCases where rate.renewsAtFixedInterval {
            #expect(rate.rawValue >= 1000)
            #expect(rate.gracePeriod(for: week) == 7 * day)
            #expect(rate.gracePeriod(for: year) == 365 * day)
            #expect(rate.billingRetryPeriod(for: month) == 60 * day)
        }
        #expect(TimeRate.allCases.filter(\.renewsAtFixedInterval).count == 6)
    }

    @Test("Billing retry attempts fall inside billing retry, in order", arguments: TimeRate.allCases)
    func attemptsInsideRetry(rate: TimeRate) {
        for period in [week, month, year] {
            let offsets = rate.billingRetryAttemptOffsets(for: period)
            #expect(!offsets.isEmpty)
            #expect(offsets == offsets.sorted())
            #expect(offsets.allSatisfy { $0 > 0 && $0 < rate.billingRetryPeriod(for: period) })
        }
    }
}

@Suite("Time rate clock")
struct TimeRateClockTests {
    @Test("At rate zero the clock stands still")
    func stopped() {
        let clock = TimeRateClock(rate: 0)
        let first = clock.now
        #expect(clock.now == first)
        #expect(clock.now == first)
    }

    @Test("Changing the rate never moves the clock backwards")
    func rateChangesAreContinuous() {
        let clock = TimeRateClock(timeRate: .oneRenewalEveryTwoSeconds)
        #expect(clock.rate == TimeRate.oneRenewalEveryTwoSeconds.clockRate)
        var previous = clock.now
        for rate in [1, 0, 1_000_000, 0.5, 0] {
            clock.rate = rate
            let current = clock.now
            #expect(current >= previous)
            previous = current
        }
        let stopped = clock.now
        clock.rate = 0
        #expect(clock.now == stopped, "stopping keeps the time it showed")
    }

    @Test("The store behind the default payment queue runs on a time rate clock that follows the time rate")
    func defaultStoreClock() {
        #expect(SimulatedStore.default.clock is TimeRateClock)
    }
}
