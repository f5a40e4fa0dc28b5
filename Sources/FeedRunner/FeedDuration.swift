public import Foundation
import StoreModels

/// A length of store time in a feed: seconds, minutes, hours, days and weeks, plus calendar months and years.
///
/// Written `3d`, `1 month`, `2h 30m`, `1y`, `90s`, `2 weeks`.
public struct FeedDuration: Sendable, Hashable {
    /// Calendar months.
    public var months = 0
    /// Calendar years.
    public var years = 0
    /// Plain seconds (from seconds, minutes, hours, days and weeks).
    public var seconds: TimeInterval = 0

    /// The date this duration after `date`, in the Gregorian calendar in UTC.
    public func after(_ date: Date) -> Date {
        var result = date
        if years > 0 { result = SubscriptionPeriod(value: years, unit: .year).advance(result) }
        if months > 0 { result = SubscriptionPeriod(value: months, unit: .month).advance(result) }
        return result.addingTimeInterval(seconds)
    }

    /// Parses words such as `["1", "month"]`, `["3d"]` or `["2h", "30m"]`; nil if they are not a duration.
    public init?(words: [String]) {
        guard !words.isEmpty else { return nil }
        var pending: Int?
        var any = false
        for word in words {
            if let number = Int(word) {
                guard pending == nil, number >= 0 else { return nil }
                pending = number
                continue
            }
            let digits = word.prefix { $0.isNumber }
            let unit = String(word.dropFirst(digits.count)).lowercased()
            let count: Int
            if digits.isEmpty {
                guard let value = pending else { return nil }
                count = value
            } else {
                guard pending == nil, let value = Int(digits) else { return nil }
                count = value
            }
            pending = nil
            guard add(count, unit: unit) else { return nil }
            any = true
        }
        guard pending == nil, any else { return nil }
    }

    private mutating func add(_ count: Int, unit: String) -> Bool {
        switch unit {
        case "s", "sec", "secs", "second", "seconds": seconds += Double(count)
        case "m", "min", "mins", "minute", "minutes": seconds += Double(count) * 60
        case "h", "hour", "hours": seconds += Double(count) * 3_600
        case "d", "day", "days": seconds += Double(count) * 86_400
        case "w", "week", "weeks": seconds += Double(count) * 604_800
        case "mo", "month", "months": months += count
        case "y", "year", "years": years += count
        default: return false
        }
        return true
    }
}
