public import Foundation

extension Product.SubscriptionPeriod.Unit {
    /// Writes a subscription period's unit as a word for people, such as `month` in "$4.99 per month".
    ///
    /// The words are English (`day`, `week`, `month`, `year`) whatever the locale: the simulated store has no
    /// translations of its own (docs/decisions.md). Get the store's style from
    /// ``Product/subscriptionPeriodUnitFormatStyle``.
    public struct FormatStyle: Foundation.FormatStyle, Codable, Hashable, Sendable {
        /// The locale the style writes for.
        let localeIdentifier: String

        /// A style for the locale with the identifier `localeIdentifier`.
        init(localeIdentifier: String = "en_US") {
            self.localeIdentifier = localeIdentifier
        }

        /// The unit as a word, such as `month`.
        ///
        /// - Parameter value: The unit.
        /// - Returns: Its name, in lowercase.
        public func format(_ value: Product.SubscriptionPeriod.Unit) -> String {
            switch value {
            case .day: "day"
            case .week: "week"
            case .month: "month"
            case .year: "year"
            }
        }

        /// The same style for another locale.
        ///
        /// - Parameter locale: The locale.
        /// - Returns: The style for `locale`.
        public func locale(_ locale: Locale) -> Self {
            Self(localeIdentifier: locale.identifier)
        }
    }
}

extension Product {
    /// The style that writes a subscription period's unit for the storefront, such as `month`.
    ///
    /// ```swift
    /// let unit = product.subscription?.subscriptionPeriod.unit.formatted(product.subscriptionPeriodUnitFormatStyle)
    /// ```
    public var subscriptionPeriodUnitFormatStyle: Product.SubscriptionPeriod.Unit.FormatStyle {
        Product.SubscriptionPeriod.Unit.FormatStyle(localeIdentifier: priceLocaleIdentifier)
    }
}
