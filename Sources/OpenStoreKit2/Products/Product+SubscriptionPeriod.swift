public import Foundation
import StoreModels

extension Product {
    /// The length of a subscription period or offer period.
    public struct SubscriptionPeriod: Equatable, Hashable, Sendable, CustomDebugStringConvertible {
        /// The unit of a period.
        public enum Unit: Int, Comparable, Hashable, Sendable {
            /// Days.
            case day
            /// Weeks.
            case week
            /// Months.
            case month
            /// Years.
            case year

            /// The store's unit of the same length.
            var storeUnit: StoreModels.SubscriptionPeriod.Unit {
                switch self {
                case .day: .day
                case .week: .week
                case .month: .month
                case .year: .year
                }
            }

            /// The unit's name for people, in English: `Day`, `Week`, `Month` or `Year`.
            public var localizedDescription: String {
                switch self {
                case .day: "Day"
                case .week: "Week"
                case .month: "Month"
                case .year: "Year"
                }
            }

            /// The unit written with a format style, such as ``Product/subscriptionPeriodUnitFormatStyle``.
            ///
            /// - Parameter format: The style.
            /// - Returns: What the style writes for the unit.
            public func formatted<S>(_ format: S) -> S.FormatOutput
            where S: Foundation.FormatStyle, S.FormatInput == Product.SubscriptionPeriod.Unit {
                format.format(self)
            }

            /// Orders units by length.
            public static func < (lhs: Unit, rhs: Unit) -> Bool { lhs.rawValue < rhs.rawValue }
        }

        /// The unit.
        public let unit: Unit
        /// How many units.
        public let value: Int

        init(_ period: StoreModels.SubscriptionPeriod) {
            value = period.value
            switch period.unit {
            case .day: unit = .day
            case .week: unit = .week
            case .month: unit = .month
            case .year: unit = .year
            }
        }

        /// The period for debugging, such as `1 month` or `3 days`.
        public var debugDescription: String {
            let unitName = Unit.FormatStyle().format(unit)
            return "\(value) \(unitName)\(value == 1 ? "" : "s")"
        }

        /// The ISO 8601 duration, such as `P1M`.
        var iso8601: String { StoreModels.SubscriptionPeriod(value: value, unit: unit.storeUnit).iso8601 }

        /// Reads an ISO 8601 duration such as `P1M`.
        init?(iso8601: String) {
            guard let period = StoreModels.SubscriptionPeriod(iso8601: iso8601) else { return nil }
            self.init(period)
        }
    }
}
