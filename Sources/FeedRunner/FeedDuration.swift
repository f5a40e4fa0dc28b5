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

    /// The longest duration one `advance` may cover: 100 years of 365.25 days (3,155,760,000 seconds), where a month
    /// counts as a twelfth of such a year. Longer durations, and numbers too large to be a duration, are refused.
    public static let maximumSeconds: Double = 3_155_760_000

    /// Parses words such as `["1", "month"]`, `["3d"]` or `["2h", "30m"]`; nil if they are not a duration, or one
    /// longer than ``maximumSeconds``.
    public init?(words: [String]) {
        guard case .success(let duration) = Self.parse(words) else { return nil }
        self = duration
    }

    /// Why words are not a duration: the index of the offending word (the first word when the whole is not a
    /// duration), and what is wrong with it.
    struct Problem: Error {
        var word: Int
        var message: String
        var isBound: Bool
    }

    private init() {}

    /// Parses a duration, or says which word is wrong and why.
    static func parse(_ words: [String]) -> Result<FeedDuration, Problem> {
        let text = "\"\(words.joined(separator: " "))\" is not a duration"
        guard !words.isEmpty else { return .failure(Problem(word: 0, message: text, isBound: false)) }
        var duration = FeedDuration()
        var pending: (count: Int, index: Int)?
        var any = false
        var total: Double = 0
        for (index, word) in words.enumerated() {
            let digits = word.prefix { $0.isASCII && $0.isNumber }
            if word.hasPrefix("-") || word.hasPrefix("+") {
                return .failure(
                    Problem(
                        word: index,
                        message: "\"\(word)\": a duration is never negative or signed; the clock only moves on",
                        isBound: false))
            }
            if !digits.isEmpty {
                guard let count = Int(digits), count <= Int(maximumSeconds) else {
                    return .failure(
                        Problem(
                            word: index, message: "\(digits) is too large for a duration (at most 100 years)",
                            isBound: true))
                }
                guard pending == nil else { return .failure(Problem(word: 0, message: text, isBound: false)) }
                if digits.count == word.count {
                    pending = (count, index)
                    continue
                }
                pending = (count, index)
            }
            guard let (count, countIndex) = pending else {
                return .failure(Problem(word: 0, message: text, isBound: false))
            }
            pending = nil
            let unit = String(word.dropFirst(digits.count)).lowercased()
            guard let seconds = Self.seconds(of: unit) else {
                return .failure(Problem(word: 0, message: text, isBound: false))
            }
            total += Double(count) * seconds
            guard total <= maximumSeconds else {
                return .failure(
                    Problem(
                        word: countIndex,
                        message:
                            "\"\(words.joined(separator: " "))\" is longer than 100 years, the most one advance covers",
                        isBound: true))
            }
            switch unit {
            case "mo", "month", "months": duration.months += count
            case "y", "year", "years": duration.years += count
            default: duration.seconds += Double(count) * seconds
            }
            any = true
        }
        guard pending == nil, any else {
            return .failure(Problem(word: 0, message: text, isBound: false))
        }
        return .success(duration)
    }

    /// The length of a unit in seconds (a month is a twelfth of 365.25 days, for the bound only); nil if unknown.
    private static func seconds(of unit: String) -> Double? {
        switch unit {
        case "s", "sec", "secs", "second", "seconds": 1
        case "m", "min", "mins", "minute", "minutes": 60
        case "h", "hour", "hours": 3_600
        case "d", "day", "days": 86_400
        case "w", "week", "weeks": 604_800
        case "mo", "month", "months": 2_629_800
        case "y", "year", "years": 31_557_600
        default: nil
        }
    }
}
