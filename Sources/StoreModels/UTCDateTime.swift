public import Foundation

/// The calendar fields of an instant in UTC (proleptic Gregorian calendar), with the calendar arithmetic and the
/// fixed-form text that feeds, event logs and receipts use (`2026-01-01T00:00:00Z`), without ICU.
///
/// Foundation's date formatters go through ICU on Linux and are about a thousand times slower than this. Any instant
/// has fields: years past 9999 are written in full, years before 1 with a minus sign, and ``init(_:)`` bounds a
/// `Date` so that no value, however far out or NaN, traps.
public struct UTCDateTime: Sendable, Hashable, CustomStringConvertible {
    /// The year; 0 is 1 BC.
    public var year: Int
    /// The month, 1 to 12.
    public var month: Int
    /// The day of the month, 1 to 31.
    public var day: Int
    /// The hour, 0 to 23.
    public var hour: Int
    /// The minute, 0 to 59.
    public var minute: Int
    /// The second, 0 to 59.
    public var second: Int
    /// The millisecond, 0 to 999.
    public var millisecond: Int

    /// The earliest instant ``init(_:)`` keeps: 10^15 seconds (some 30 million years) before 1970.
    public static let earliestSecond: Int64 = -1_000_000_000_000_000
    /// The latest instant ``init(_:)`` keeps: 10^15 seconds after 1970.
    public static let latestSecond: Int64 = 1_000_000_000_000_000

    /// The fields of a date, bounded: a date more than 10^15 seconds from 1970 takes that bound, and a date that
    /// is not a number is 1970-01-01T00:00:00Z. Time below the millisecond is dropped.
    ///
    /// - Parameter date: Any date.
    public init(_ date: Date) {
        let interval = date.timeIntervalSince1970
        guard !interval.isNaN else {
            self.init(days: 0, millisecondOfDay: 0)
            return
        }
        let bounded = min(max(interval, Double(Self.earliestSecond)), Double(Self.latestSecond))
        let whole = bounded.rounded(.down)
        let milliseconds = min(max(Int64(((bounded - whole) * 1000).rounded(.down)), 0), 999)
        self.init(secondsSince1970: Int64(whole))
        millisecond = Int(milliseconds)
    }

    /// The fields of an instant given in whole seconds since 1970-01-01T00:00:00Z.
    ///
    /// - Parameter seconds: Any number of seconds, before (negative) or after 1970.
    public init(secondsSince1970 seconds: Int64) {
        let (days, secondOfDay) = Self.floorDivide(seconds, 86_400)
        self.init(days: days, millisecondOfDay: Int(secondOfDay) * 1000)
    }

    /// The fields of an instant given in milliseconds since 1970-01-01T00:00:00Z.
    ///
    /// - Parameter milliseconds: Any number of milliseconds, before (negative) or after 1970.
    public init(millisecondsSince1970 milliseconds: Int64) {
        let (days, millisecondOfDay) = Self.floorDivide(milliseconds, 86_400_000)
        self.init(days: days, millisecondOfDay: Int(millisecondOfDay))
    }

    private init(days: Int64, millisecondOfDay: Int) {
        (year, month, day) = Self.civilDate(daysSince1970: days)
        hour = millisecondOfDay / 3_600_000
        minute = millisecondOfDay / 60_000 % 60
        second = millisecondOfDay / 1000 % 60
        millisecond = millisecondOfDay % 1000
    }

    /// `2026-01-01T00:00:00Z`: the date, `T`, the time in whole seconds, `Z`.
    public var description: String { text() }

    /// The fields as text: `2020-07-14T19:36:40Z` by default.
    ///
    /// - Parameters:
    ///   - separator: What stands between the date and the time (`T`, or a space).
    ///   - milliseconds: Whether to write `.250` after the seconds when the millisecond is not zero.
    ///   - zone: What follows the time (`Z`, ` Etc/GMT`, or nothing).
    /// - Returns: The text, with the year in at least four digits and the other fields in two (milliseconds in
    ///   three).
    public func text(separator: String = "T", milliseconds: Bool = false, zone: String = "Z") -> String {
        if separator == "T", zone == "Z", !milliseconds || millisecond == 0, let text = basicText { return text }
        var text = (year < 0 ? "-" : "") + Self.pad(abs(year), 4) + "-" + Self.pad(month, 2) + "-" + Self.pad(day, 2)
        text += separator + Self.pad(hour, 2) + ":" + Self.pad(minute, 2) + ":" + Self.pad(second, 2)
        if milliseconds && millisecond != 0 { text += "." + Self.pad(millisecond, 3) }
        return text + zone
    }

    /// Whether a year has February 29.
    public static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// The number of days in a month of a year.
    ///
    /// - Parameters:
    ///   - year: The year.
    ///   - month: The month, 1 to 12.
    /// - Returns: 28 to 31.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a date (Howard Hinnant's algorithm); the fields are not checked.
    ///
    /// - Parameters:
    ///   - year: The year.
    ///   - month: The month, 1 to 12.
    ///   - day: The day of the month.
    /// - Returns: The days, negative before 1970.
    public static func daysSince1970(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
    ///
    /// - Parameter days: Days since 1970-01-01, negative before.
    /// - Returns: The year, month and day.
    public static func civilDate(daysSince1970 days: Int64) -> (year: Int, month: Int, day: Int) {
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

    /// Quotient rounded down and non-negative remainder.
    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }

    /// `YYYY-MM-DDThh:mm:ssZ`, written into one buffer, when each field fits its width (as ``text(separator:
    /// milliseconds:zone:)`` writes them then); `nil` otherwise.
    private var basicText: String? {
        let fields = [(year, 4), (month, 2), (day, 2), (hour, 2), (minute, 2), (second, 2)]
        guard (0...9999).contains(year), fields.dropFirst().allSatisfy({ (0...99).contains($0.0) }) else { return nil }
        return String(unsafeUninitializedCapacity: 20) { buffer in
            var offset = 0
            for (index, (value, width)) in fields.enumerated() {
                var rest = value
                for position in stride(from: offset + width - 1, through: offset, by: -1) {
                    buffer[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
                offset += width
                buffer[offset] = UInt8(ascii: index < 2 ? "-" : index == 2 ? "T" : index < 5 ? ":" : "Z")
                offset += 1
            }
            return offset
        }
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
