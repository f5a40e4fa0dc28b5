public import Foundation

/// One product of a store's catalog, as a `.storekit` file or App Store Connect defines it.
public struct ProductDefinition: Sendable, Hashable, Codable, Identifiable {
    /// The product identifier that payments name.
    public let id: String
    /// The internal reference name.
    public let referenceName: String
    /// Consumable, non-consumable, non-renewing or auto-renewable.
    public let type: ProductType
    /// The price in the storefront's currency.
    public let price: Decimal
    /// Whether Family Sharing applies.
    public let isFamilyShareable: Bool
    /// Titles and descriptions by locale.
    public let localizations: [ProductLocalization]
    /// Subscription details; present only for auto-renewable subscriptions.
    public let subscription: SubscriptionInfo?

    /// Creates a product.
    public init(
        id: String,
        referenceName: String? = nil,
        type: ProductType,
        price: Decimal,
        isFamilyShareable: Bool = false,
        localizations: [ProductLocalization] = [],
        subscription: SubscriptionInfo? = nil
    ) {
        self.id = id
        self.referenceName = referenceName ?? id
        self.type = type
        self.price = price
        self.isFamilyShareable = isFamilyShareable
        self.localizations = localizations
        self.subscription = subscription
    }

    /// The localization for `locale` (such as `en_US`), else one with the same language, else the first.
    public func localization(for locale: String) -> ProductLocalization? {
        if let exact = localizations.first(where: { $0.locale == locale }) { return exact }
        let language = locale.split(separator: "_").first.map(String.init) ?? locale
        if let sameLanguage = localizations.first(where: { $0.locale.hasPrefix(language) }) { return sameLanguage }
        return localizations.first
    }
}
