public import Foundation
import StoreModels

/// A product from the store, as an `SKProductsRequest` returns it.
///
/// Properties are `open`, so that tests can subclass it and override them, as they do on Apple platforms.
open class SKProduct: NSObject, @unchecked Sendable {
    // @unchecked: every stored property is a constant; subclasses that add state are their own business.

    /// A unit of a subscription period, with StoreKit's raw values.
    public enum PeriodUnit: UInt, Sendable, Hashable {
        /// A day.
        case day = 0
        /// A week.
        case week = 1
        /// A month.
        case month = 2
        /// A year.
        case year = 3
    }

    private let definition: ProductDefinition
    private let localization: ProductLocalization?
    private let locale: Locale

    /// Creates a product with empty values, for subclasses that override the properties.
    public override init() {
        self.definition = ProductDefinition(id: "", type: .consumable, price: 0)
        self.localization = nil
        self.locale = Locale(identifier: "en_US")
    }

    init(_ definition: ProductDefinition, localeIdentifier: String, storefront: Storefront) {
        self.definition = definition
        self.localization = definition.localization(for: localeIdentifier)
        self.locale = Locale(identifier: storefront.priceLocaleIdentifier)
    }

    /// The product identifier.
    open var productIdentifier: String { definition.id }
    /// The title, in the storefront's language.
    open var localizedTitle: String { localization?.displayName ?? "" }
    /// The description, in the storefront's language.
    open var localizedDescription: String { localization?.description ?? "" }
    /// The price; format it with a currency `NumberFormatter` whose locale is ``priceLocale``.
    open var price: NSDecimalNumber { NSDecimalNumber(decimal: definition.price) }
    /// The locale of the price's currency.
    open var priceLocale: Locale { locale }
    /// Whether Family Sharing applies.
    open var isFamilyShareable: Bool { definition.isFamilyShareable }
    /// The subscription period; `nil` unless an auto-renewable subscription.
    open var subscriptionPeriod: SKProductSubscriptionPeriod? {
        definition.subscription.map { SKProductSubscriptionPeriod($0.period) }
    }
    /// The introductory offer, if any.
    open var introductoryPrice: SKProductDiscount? {
        definition.subscription?.introductoryOffer.map { SKProductDiscount($0, priceLocale: locale) }
    }
    /// The subscription group; `nil` unless an auto-renewable subscription.
    open var subscriptionGroupIdentifier: String? { definition.subscription?.groupID }
    /// The promotional offers.
    open var discounts: [SKProductDiscount] {
        definition.subscription?.promotionalOffers.map { SKProductDiscount($0, priceLocale: locale) } ?? []
    }
    /// Hosted content is not supported: always `false`.
    open var isDownloadable: Bool { false }

    /// `<SKProduct: com.example.pro 9.99>`.
    open override var description: String { "<SKProduct: \(productIdentifier) \(price)>" }
}
