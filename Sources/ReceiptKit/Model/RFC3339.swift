/// Hand-written RFC 3339 parsing and formatting, in whole milliseconds since 1970.
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
        guard day >= 1 && day <= daysInMonth(year: year, month: month) else {
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
        let parts = Parts(milliseconds: milliseconds)
        var text = parts.dateAndTime(separator: "T")
        if parts.millisecond != 0 {
            text += "." + pad(parts.millisecond, 3)
        }
        return text + "Z"
    }

    /// Formats an instant the way Apple's verifyReceipt JSON does: `2020-07-14 19:36:40 Etc/GMT`.
    static func formatAppleJSON(milliseconds: Int64) -> String {
        Parts(milliseconds: milliseconds).dateAndTime(separator: " ") + " Etc/GMT"
    }

    /// 0000-01-01T00:00:00.000Z, the first instant the format can express.
    static let lowestMilliseconds = daysFromCivil(year: 0, month: 1, day: 1) * 86_400_000
    /// 9999-12-31T23:59:59.999Z, the last instant the format can express.
    static let highestMilliseconds = daysFromCivil(year: 10_000, month: 1, day: 1) * 86_400_000 - 1

    /// Calendar fields of an instant in UTC.
    struct Parts {
        var year: Int
        var month: Int
        var day: Int
        var hour: Int
        var minute: Int
        var second: Int
        var millisecond: Int

        init(milliseconds: Int64) {
            let clamped = min(max(milliseconds, lowestMilliseconds), highestMilliseconds)
            let (days, millisecondOfDay) = floorDivide(clamped, 86_400_000)
            (year, month, day) = civilFromDays(days)
            let ofDay = Int(millisecondOfDay)
            hour = ofDay / 3_600_000
            minute = ofDay / 60_000 % 60
            second = ofDay / 1000 % 60
            millisecond = ofDay % 1000
        }

        func dateAndTime(separator: String) -> String {
            pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + separator + pad(hour, 2) + ":" + pad(minute, 2)
                + ":" + pad(second, 2)
        }
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// Quotient and non-negative remainder.
    static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
        return (quotient, value - quotient * divisor)
    }

    static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01.
    static func civilFromDays(_ days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }
}
