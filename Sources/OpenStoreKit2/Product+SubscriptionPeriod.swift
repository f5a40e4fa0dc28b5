import StoreModels

extension Product {
    /// The length of a subscription period or offer period.
    public struct SubscriptionPeriod: Equatable, Hashable, Sendable {
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

        /// The ISO 8601 duration, such as `P1M`.
        var iso8601: String {
            let letter =
                switch unit {
                case .day: "D"
                case .week: "W"
                case .month: "M"
                case .year: "Y"
                }
            return "P\(value)\(letter)"
        }

        /// Reads an ISO 8601 duration such as `P1M`.
        init?(iso8601: String) {
            guard let period = StoreModels.SubscriptionPeriod(iso8601: iso8601) else { return nil }
            self.init(period)
        }
    }
}
