public import Foundation

/// Fast, allocation-light ISO 8601 formatting and parsing of UTC dates (`2026-01-01T00:00:00Z`), without ICU.
public enum ISO8601 {
    /// The earliest date a feed names or its clock reaches: 1970-01-01T00:00:00Z.
    public static let earliest = Date(timeIntervalSince1970: 0)
    /// The latest date a feed names or its clock reaches: 9999-12-31T23:59:59Z.
    public static let latest = Date(timeIntervalSince1970: 253_402_300_799)

    /// `2026-01-01T00:00:00Z`; fractional seconds are dropped. Dates more than 10^15 seconds (some 30 million years)
    /// from 1970 are written as those bounds, and a date that is not a number as 1970.
    public static func format(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        let bounded = interval.isNaN ? 0 : min(max(interval, -1e15), 1e15)
        let total = Int64(bounded.rounded(.down))
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondsOfDay = Int(total - days * 86_400)
        let (year, month, day) = civil(fromDays: days)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(secondsOfDay / 3600)):\(two(secondsOfDay / 60 % 60)):"
            + "\(two(secondsOfDay % 60))Z"
    }

    /// Parses `2026-01-01`, `2026-01-01T10:00:00Z` or `2026-01-01T10:00Z` (UTC); nil for anything else.
    public static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[from..<(from + count)] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard bytes.count >= 10, bytes[4] == 45, bytes[7] == 45, let year = number(0, 4), let month = number(5, 2),
            let day = number(8, 2), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var seconds = 0
        if bytes.count > 10 {
            guard bytes[10] == 84, let hour = number(11, 2), bytes.count > 13, bytes[13] == 58,
                let minute = number(14, 2), hour < 24, minute < 60
            else { return nil }
            seconds = hour * 3600 + minute * 60
            var index = 16
            if bytes.count > 16, bytes[16] == 58 {
                guard let second = number(17, 2), second < 60 else { return nil }
                seconds += second
                index = 19
            }
            guard bytes.count == index + 1, bytes[index] == 90 else { return nil }
        }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + Int64(seconds)))
    }

    // Howard Hinnant's civil calendar algorithms.
    private static func civil(fromDays z0: Int64) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (Int(yoe + era * 400 + (month <= 2 ? 1 : 0)), Int(month), Int(day))
    }

    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
