public import Foundation
import StoreModels

/// Fast, allocation-light ISO 8601 formatting and parsing of UTC dates (`2026-01-01T00:00:00Z`), without ICU, over
/// StoreModels' calendar (`UTCDateTime`).
public enum ISO8601 {
    /// The earliest date a feed names or its clock reaches: 1970-01-01T00:00:00Z.
    public static let earliest = Date(timeIntervalSince1970: 0)
    /// The latest date a feed names or its clock reaches: 9999-12-31T23:59:59Z.
    public static let latest = Date(timeIntervalSince1970: 253_402_300_799)

    /// `2026-01-01T00:00:00Z`; fractional seconds are dropped. Dates more than 10^15 seconds (some 30 million years)
    /// from 1970 are written as those bounds, and a date that is not a number as 1970.
    public static func format(_ date: Date) -> String { UTCDateTime(date).text() }

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
            let day = number(8, 2), (1...12).contains(month), day >= 1,
            day <= UTCDateTime.daysInMonth(year: year, month: month)
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
        let days = UTCDateTime.daysSince1970(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + Int64(seconds)))
    }
}
