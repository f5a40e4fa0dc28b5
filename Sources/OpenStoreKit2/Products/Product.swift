public import Foundation
import StoreModels
import StoreSimulator

/// A product of the App Store, as StoreKit 2 shows it: its identifier, type, localized name and description, price,
/// and for an auto-renewable subscription its ``SubscriptionInfo``.
///
/// Products come from ``products(for:)``; there is no public initializer, as on iOS.
public struct Product: Identifiable, Equatable, Hashable, Sendable, CustomDebugStringConvertible {
    /// The product identifier.
    public let id: String
    /// The product's type.
    public let type: Product.ProductType
    /// The localized name.
    public let displayName: String
    /// The localized description.
    public let description: String
    /// The price in the storefront's currency.
    public let price: Decimal
    /// The price formatted in the storefront's currency, such as `$4.99`.
    public let displayPrice: String
    /// Whether family members share the purchase.
    public let isFamilyShareable: Bool
    /// The subscription's details, for an auto-renewable subscription.
    public let subscription: Product.SubscriptionInfo?
    /// The ISO 4217 code of the price's currency.
    let currencyCode: String
    /// The storefront's locale, which prices and subscription period units are written for.
    let priceLocaleIdentifier: String
    /// Where the product came from.
    let client: StoreKitClient

    init(_ definition: ProductDefinition, storefront: StoreModels.Storefront, locale: String, client: StoreKitClient) {
        id = definition.id
        type = ProductType(definition.type)
        let localization = definition.localization(for: locale) ?? definition.localizations.first
        displayName = localization?.displayName ?? definition.referenceName
        description = localization?.description ?? ""
        price = definition.price
        priceLocaleIdentifier = storefront.priceLocaleIdentifier
        let priceLocale = Locale(identifier: storefront.priceLocaleIdentifier)
        let code = priceLocale.currency?.identifier ?? "USD"
        currencyCode = code
        displayPrice = Product.format(definition.price, currencyCode: code, locale: priceLocale)
        isFamilyShareable = definition.isFamilyShareable
        subscription = definition.subscription.map {
            SubscriptionInfo($0, price: definition.price, currencyCode: code, locale: priceLocale, client: client)
        }
        self.client = client
    }

    static func format(_ price: Decimal, currencyCode: String, locale: Locale) -> String {
        price.formatted(.currency(code: currencyCode).locale(locale))
    }

    /// The format style ``displayPrice`` is written with.
    public var priceFormatStyle: Decimal.FormatStyle.Currency {
        .currency(code: currencyCode)
    }

    /// The product as JSON: its identifier, type, name, description, price and currency.
    public var jsonRepresentation: Data {
        var object: [String: Any] = [
            "id": id, "type": type.rawValue, "displayName": displayName, "description": description,
            "price": NSDecimalNumber(decimal: price).doubleValue, "displayPrice": displayPrice,
            "currencyCode": currencyCode, "isFamilyShareable": isFamilyShareable,
        ]
        if let subscription {
            object["subscriptionGroupID"] = subscription.subscriptionGroupID
            object["subscriptionPeriod"] = subscription.subscriptionPeriod.iso8601
        }
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    }

    /// A description for debugging.
    public var debugDescription: String { "Product(\(id), \(type.rawValue), \(displayPrice))" }

    /// Two products are equal when they show the same values.
    public static func == (lhs: Product, rhs: Product) -> Bool {
        lhs.id == rhs.id && lhs.type == rhs.type && lhs.displayName == rhs.displayName
            && lhs.description == rhs.description && lhs.price == rhs.price && lhs.displayPrice == rhs.displayPrice
            && lhs.isFamilyShareable == rhs.isFamilyShareable && lhs.subscription == rhs.subscription
    }

    /// Hashes the product's identifier and price.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(price)
    }

    /// Looks products up in the bound store's catalog (``StoreKitEnvironment``): the known ones, each once, in the
    /// order asked; unknown identifiers are left out.
    ///
    /// - Parameter identifiers: The product identifiers: an array, a set, a dictionary's keys, any collection.
    /// - Returns: The products found.
    /// - Throws: ``StoreKitError`` when a test simulates a failure (`.loadProducts`).
    public static func products<Identifiers: Collection>(for identifiers: Identifiers) async throws -> [Product]
    where Identifiers.Element == String {
        try await StoreKitEnvironment.current.products(Array(identifiers))
    }

    /// Buys the product on the bound device.
    ///
    /// - Parameter options: Quantity, app account token, promotional offer, Ask to Buy.
    /// - Returns: `.success` with the verified (or unverified) transaction, `.userCancelled`, or `.pending` while a
    ///   parent decides (the outcome then arrives through ``Transaction/updates``; a declined request never does).
    /// - Throws: ``PurchaseError`` or ``StoreKitError``.
    @MainActor
    public func purchase(options: Set<Product.PurchaseOption> = []) async throws -> Product.PurchaseResult {
        try await client.purchase(self, options: options)
    }

    /// The latest transaction of the product (``Transaction/latest(for:)``).
    public var latestTransaction: VerificationResult<Transaction>? {
        get async { await client.latest(for: id) }
    }

    /// The transaction that entitles the customer to the product now (``Transaction/currentEntitlement(for:)``).
    public var currentEntitlement: VerificationResult<Transaction>? {
        get async { await client.currentEntitlement(for: id) }
    }

    /// The transactions that entitle the customer to the product now (``Transaction/currentEntitlements(for:)``):
    /// at most one for a product of this store. The spelling of iOS 18.4 and later for ``currentEntitlement``.
    public var currentEntitlements: Transaction.Transactions {
        Transaction.currentEntitlements(for: id, client: client)
    }
}
