public import Foundation

/// A length of time in whole calendar units, such as one month or three days.
///
/// Periods are added in the Gregorian calendar in UTC, so a monthly subscription bought on January 31
/// renews on the last day of February, as the App Store does.
public struct SubscriptionPeriod: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A calendar unit of a period.
    public enum Unit: String, Sendable, Hashable, Codable, CaseIterable {
        /// One day.
        case day
        /// Seven days.
        case week
        /// One calendar month.
        case month
        /// One calendar year.
        case year
    }

    /// How many units the period lasts; at least 1.
    public let value: Int
    /// The unit the period counts.
    public let unit: Unit

    /// Creates a period of `value` units.
    public init(value: Int, unit: Unit) {
        self.value = value
        self.unit = unit
    }

    /// Parses an ISO 8601 duration with one component, such as `P1M`, `P3D`, `P2W` or `P1Y`.
    ///
    /// Returns `nil` for anything else.
    public init?(iso8601 text: String) {
        let scalars = Array(text.utf8)
        guard scalars.count >= 3, scalars[0] == UInt8(ascii: "P") else { return nil }
        var number = 0
        for digit in scalars[1..<(scalars.count - 1)] {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9"), number < 10_000 else { return nil }
            number = number * 10 + Int(digit - UInt8(ascii: "0"))
        }
        guard number > 0 else { return nil }
        switch scalars[scalars.count - 1] {
        case UInt8(ascii: "D"): self.init(value: number, unit: .day)
        case UInt8(ascii: "W"): self.init(value: number, unit: .week)
        case UInt8(ascii: "M"): self.init(value: number, unit: .month)
        case UInt8(ascii: "Y"): self.init(value: number, unit: .year)
        default: return nil
        }
    }

    /// The ISO 8601 form, such as `P1M`.
    public var iso8601: String {
        let letter =
            switch unit {
            case .day: "D"
            case .week: "W"
            case .month: "M"
            case .year: "Y"
            }
        return "P\(value)\(letter)"
    }

    /// The ISO 8601 form, such as `P1M`.
    public var description: String { iso8601 }

    /// The date `count` periods after `date`, in the Gregorian calendar in UTC; `date` itself when the calendar
    /// cannot represent the result (a count so large that it overflows, say).
    public func advance(_ date: Date, by count: Int = 1) -> Date {
        var components = DateComponents()
        let units = unit == .week ? count.multipliedReportingOverflow(by: 7) : (count, false)
        let (total, overflow) = value.multipliedReportingOverflow(by: units.0)
        guard !units.1, !overflow else { return date }
        switch unit {
        case .day, .week: components.day = total
        case .month: components.month = total
        case .year: components.year = total
        }
        return Self.calendar.date(byAdding: components, to: date) ?? date
    }

    /// An approximate length in seconds (a month is 30 days, a year 365), for scaling accelerated time rates.
    public var approximateSeconds: TimeInterval {
        let day: TimeInterval = 86_400
        switch unit {
        case .day: return Double(value) * day
        case .week: return Double(value) * 7 * day
        case .month: return Double(value) * 30 * day
        case .year: return Double(value) * 365 * day
        }
    }

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar
    }()
}
