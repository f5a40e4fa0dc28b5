public import Foundation
public import OpenStoreKit
import StoreModels

/// A product as a paywall shows it, and as delegate payloads carry it.
///
/// Its JSON form is `{"vendorProductId": "premium_monthly", "localizedTitle": "Premium Monthly",
/// "localizedDescription": "Premium subscription for 1 month", "localizedPrice": "$9.99", "price": 9.99,
/// "currencyCode": "USD"}` (``jsonString``). Where the product was shown (paywall, variation, web purchase URL,
/// offer) travels with it but is not part of that form: a web paywall opened for the product uses it.
public struct PaywallProduct: Sendable, Hashable {
    /// The store's product identifier.
    public let vendorProductId: String
    /// The title, in the storefront's language.
    public let localizedTitle: String
    /// The description, in the storefront's language.
    public let localizedDescription: String
    /// The price formatted in the storefront's currency, such as `$9.99`.
    public let localizedPrice: String
    /// The price.
    public let price: Decimal
    /// The ISO 4217 currency code, such as `USD`.
    public let currencyCode: String
    /// The paywall that shows the product.
    public let paywallId: String?
    /// The paywall's variation (A/B test arm).
    public let variationId: String?
    /// The product's own web purchase URL; the paywall's is used when it has none.
    public let webPurchaseURL: URL?
    /// The paywall's web purchase URL.
    public let paywallWebPurchaseURL: URL?
    /// The offer the paywall shows for the product, if any.
    public let offerId: String?

    /// Creates a product payload.
    public init(
        vendorProductId: String,
        localizedTitle: String,
        localizedDescription: String,
        localizedPrice: String,
        price: Decimal,
        currencyCode: String,
        paywallId: String? = nil,
        variationId: String? = nil,
        webPurchaseURL: URL? = nil,
        paywallWebPurchaseURL: URL? = nil,
        offerId: String? = nil
    ) {
        self.vendorProductId = vendorProductId
        self.localizedTitle = localizedTitle
        self.localizedDescription = localizedDescription
        self.localizedPrice = localizedPrice
        self.price = price
        self.currencyCode = currencyCode
        self.paywallId = paywallId
        self.variationId = variationId
        self.webPurchaseURL = webPurchaseURL
        self.paywallWebPurchaseURL = paywallWebPurchaseURL
        self.offerId = offerId
    }

    /// The payload of a loaded store product, its price formatted with a currency formatter in the product's
    /// `priceLocale`, shown on `paywall` (when given) with the slot's web purchase URL and offer.
    public init(_ product: SKProduct, paywall: PaywallConfiguration? = nil) {
        let slot = paywall?.products.first { $0.id == product.productIdentifier }
        let formatter = NumberFormatter()
        formatter.numberStyle = .currency
        formatter.locale = product.priceLocale
        self.init(
            vendorProductId: product.productIdentifier,
            localizedTitle: product.localizedTitle,
            localizedDescription: product.localizedDescription,
            localizedPrice: formatter.string(from: product.price) ?? "\(product.price)",
            price: product.price.decimalValue,
            currencyCode: product.priceLocale.currency?.identifier ?? "",
            paywallId: paywall?.paywallId,
            variationId: paywall?.variationId,
            webPurchaseURL: slot?.webPurchaseURL,
            paywallWebPurchaseURL: paywall?.webPurchaseURL,
            offerId: slot?.offerId
        )
    }

    /// The JSON form, keys in the specification's order.
    public var jsonString: String { jsonObject.jsonString }

    var jsonObject: JSONObjectWriter {
        var object = JSONObjectWriter()
        object.add("vendorProductId", .string(vendorProductId))
        object.add("localizedTitle", .string(localizedTitle))
        object.add("localizedDescription", .string(localizedDescription))
        object.add("localizedPrice", .string(localizedPrice))
        object.add("price", json: "\(price)")
        object.add("currencyCode", .string(currencyCode))
        return object
    }
}
