public import Foundation
public import OpenStoreKit2
import StoreSimulator

extension Product.PurchaseOption {
    /// Renewal options for auto-renewable subscriptions that you purchase in the testing environment, with
    /// ``purchaseDate(_:renewalBehavior:)``.
    public enum SubscriptionRenewalBehavior: Hashable, Sendable {
        /// The subscription is cancelled at once, so it has one period: auto-renew is off from the purchase, and a
        /// period that ended before now has expired.
        case cancelImmediately
        /// The subscription renews from the purchase date until now: every renewal since is in its history, dated
        /// when it fell due, as if the store's clock had moved through them.
        case renewUntilNow
    }

    /// Sets the purchase date for the transaction in the testing environment, and the renewal behavior for an
    /// auto-renewable subscription, for ``SKTestSession/buyProduct(identifier:options:)``.
    ///
    /// The date is in the past or now: a date in the future, or one within the account's subscription of the group,
    /// makes `buyProduct` throw `SKTestError` `invalidAction` (docs/decisions.md 107). `Product.purchase(options:)`
    /// ignores the option, as Apple documents it for `buyProduct` only.
    ///
    /// - Parameters:
    ///   - date: The purchase date for the transaction.
    ///   - renewalBehavior: Whether the subscription renews continuously from the purchase date, or is cancelled
    ///     after the first period. By default it renews.
    /// - Returns: The option.
    public static func purchaseDate(
        _ date: Date, renewalBehavior: Product.PurchaseOption.SubscriptionRenewalBehavior = .renewUntilNow
    ) -> Product.PurchaseOption {
        Product.PurchaseOption(
            testing: TestPurchaseOptions(purchaseDate: date, renewsUntilNow: renewalBehavior == .renewUntilNow))
    }

    /// Sets a promotional offer for the transaction in the testing environment, without a signature, for
    /// ``SKTestSession/buyProduct(identifier:options:)``: one of the product's promotional offers in the
    /// configuration, for a customer who subscribed in the group before, as a signed offer is.
    ///
    /// - Parameter identifier: The identifier of the promotional offer to apply.
    /// - Returns: The option.
    public static func promotionalOffer(id identifier: String) -> Product.PurchaseOption {
        Product.PurchaseOption(testing: TestPurchaseOptions(promotionalOfferID: identifier))
    }

    /// Sets an offer code for the transaction in the testing environment, for
    /// ``SKTestSession/buyProduct(identifier:options:)``: the purchase redeems the offer of one of the product's
    /// offer codes in the configuration (its `codeOffers`); the transaction's offer has type `.code` and the offer's
    /// reference name as its identifier.
    ///
    /// - Parameter referenceName: The reference name of the offer code to apply.
    /// - Returns: The option.
    public static func codeOffer(referenceName: String) -> Product.PurchaseOption {
        Product.PurchaseOption(testing: TestPurchaseOptions(offerCodeReferenceName: referenceName))
    }
}
