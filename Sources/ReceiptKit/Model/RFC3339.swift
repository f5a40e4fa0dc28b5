import StoreModels

/// Hand-written RFC 3339 parsing and formatting, in whole milliseconds since 1970, over StoreModels' calendar
/// (``UTCDateTime``).
///
/// Foundation's date formatters go through ICU on Linux and are about a thousand times slower than this; receipts
/// carry three or four dates per purchase. Accepted forms, all seen in real receipts: `2020-07-14T19:36:40Z`,
/// fractional seconds (`.686Z`, any number of digits, truncated to milliseconds), and offsets `+0300` or `+03:00`.
/// The empty string means "absent".
enum RFC3339 {
    /// What parsing found.
    enum Result: Equatable {
        /// The string was empty.
        case empty
        /// The instant, in milliseconds since 1970-01-01T00:00:00Z.
        case milliseconds(Int64)
        /// The string is not a date; the reason says why.
        case invalid(String)
    }

    /// Parses a date from ASCII bytes.
    static func parse(_ text: UnsafeRawBufferPointer) -> Result {
        let count = text.count
        if count == 0 { return .empty }
        guard count >= 19 else { return .invalid("too short") }
        @inline(__always) func digits(_ at: Int, _ width: Int) -> Int? {
            var value = 0
            for index in at..<(at + width) {
                let digit = Int(text[index]) &- 48
                guard digit >= 0 && digit <= 9 else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard let year = digits(0, 4), text[4] == 0x2D, let month = digits(5, 2), text[7] == 0x2D,
            let day = digits(8, 2)
        else { return .invalid("the date is not YYYY-MM-DD") }
        let separator = text[10]
        guard separator == 0x54 || separator == 0x74 || separator == 0x20 else {
            return .invalid("the date and time are not separated by T")
        }
        guard let hour = digits(11, 2), text[13] == 0x3A, let minute = digits(14, 2), text[16] == 0x3A,
            let second = digits(17, 2)
        else { return .invalid("the time is not hh:mm:ss") }
        guard (1...12).contains(month) else { return .invalid("month \(month) is out of range") }
        guard day >= 1 && day <= UTCDateTime.daysInMonth(year: year, month: month) else {
            return .invalid("day \(day) is out of range")
        }
        guard hour <= 23, minute <= 59, second <= 60 else { return .invalid("the time is out of range") }
        var position = 19
        var milliseconds = 0
        if position < count && text[position] == 0x2E {
            position += 1
            let start = position
            while position < count, text[position] >= 0x30, text[position] <= 0x39 {
                if position - start < 3 { milliseconds = milliseconds * 10 + Int(text[position] - 0x30) }
                position += 1
            }
            guard position > start else { return .invalid("a fraction point has no digits") }
            for _ in min(position - start, 3)..<3 { milliseconds *= 10 }
        }
        guard position < count else { return .invalid("the time zone is missing") }
        var offsetSeconds = 0
        switch text[position] {
        case 0x5A, 0x7A:  // Z, z
            position += 1
        case 0x2B, 0x2D:  // +, -
            let sign = text[position] == 0x2D ? -1 : 1
            position += 1
            let remaining = count - position
            guard remaining == 4 || remaining == 5, let hours = digits(position, 2) else {
                return .invalid("the offset is not +hhmm or +hh:mm")
            }
            let minutesAt = remaining == 5 ? position + 3 : position + 2
            guard remaining == 4 || text[position + 2] == 0x3A, let minutes = digits(minutesAt, 2) else {
                return .invalid("the offset is not +hhmm or +hh:mm")
            }
            guard hours <= 23, minutes <= 59 else { return .invalid("the offset is out of range") }
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
            position = count
        default:
            return .invalid("the time zone is not Z, +hhmm or +hh:mm")
        }
        guard position == count else { return .invalid("characters follow the time zone") }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second - offsetSeconds)
        let instant = seconds * 1000 + Int64(milliseconds)
        guard instant >= lowestMilliseconds && instant <= highestMilliseconds else {
            return .invalid("the instant falls outside the years 0000 to 9999 in UTC")
        }
        return .milliseconds(instant)
    }

    /// Formats an instant as RFC 3339 in UTC: `2020-07-14T19:36:40Z`, or `...40.250Z` when it has milliseconds.
    ///
    /// Years are clamped to 0000...9999, the range the format can express.
    static func format(milliseconds: Int64) -> String {
        fields(milliseconds).text(milliseconds: true)
    }

    /// Formats an instant the way Apple's verifyReceipt JSON does: `2020-07-14 19:36:40 Etc/GMT`.
    static func formatAppleJSON(milliseconds: Int64) -> String {
        fields(milliseconds).text(separator: " ", zone: " Etc/GMT")
    }

    /// 0000-01-01T00:00:00.000Z, the first instant the format can express.
    static let lowestMilliseconds = daysFromCivil(year: 0, month: 1, day: 1) * 86_400_000
    /// 9999-12-31T23:59:59.999Z, the last instant the format can express.
    static let highestMilliseconds = daysFromCivil(year: 10_000, month: 1, day: 1) * 86_400_000 - 1

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
        UTCDateTime.daysSince1970(year: year, month: month, day: day)
    }

    private static func fields(_ milliseconds: Int64) -> UTCDateTime {
        UTCDateTime(millisecondsSince1970: min(max(milliseconds, lowestMilliseconds), highestMilliseconds))
    }
}
