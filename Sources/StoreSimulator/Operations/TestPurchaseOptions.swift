public import Foundation
public import StoreModels

/// What StoreKit Test's purchase options ask of a purchase made outside the app
/// (``SimulatedStore/buyProduct(_:quantity:account:applicationUsername:options:)``): a purchase dated in the past, with
/// or without the renewals since, a promotional offer or an offer code applied without a signature, and a billing plan.
///
/// `SKTestSession.buyProduct(identifier:options:)` builds one from `Product.PurchaseOption.purchaseDate(_:renewalBehavior:)`,
/// `.promotionalOffer(id:)`, `.codeOffer(referenceName:)` and `.billingPlanType(_:)`. The default asks for nothing: a
/// purchase now.
public struct TestPurchaseOptions: Sendable, Hashable {
    /// When the purchase was made; `nil` for now. It may not be in the future (docs/decisions.md).
    public var purchaseDate: Date?
    /// Whether an auto-renewable subscription bought at ``purchaseDate`` renews until now (`renewUntilNow`), or was
    /// cancelled at once, so that it has one period (`cancelImmediately`).
    public var renewsUntilNow: Bool
    /// The identifier of a promotional offer of the subscription to apply, without a signature.
    public var promotionalOfferID: String?
    /// The reference name of an offer code of the subscription to redeem.
    public var offerCodeReferenceName: String?
    /// The billing plan of the subscription to buy (one the product offers; docs/decisions.md 109), or `nil` for the
    /// plan a purchase gets by default.
    public var billingPlan: BillingPlan.Kind?

    /// Creates options.
    public init(
        purchaseDate: Date? = nil, renewsUntilNow: Bool = true, promotionalOfferID: String? = nil,
        offerCodeReferenceName: String? = nil, billingPlan: BillingPlan.Kind? = nil
    ) {
        self.purchaseDate = purchaseDate
        self.renewsUntilNow = renewsUntilNow
        self.promotionalOfferID = promotionalOfferID
        self.offerCodeReferenceName = offerCodeReferenceName
        self.billingPlan = billingPlan
    }

    /// These options with each one `other` sets (a later option of the same kind wins).
    public func merging(_ other: TestPurchaseOptions) -> TestPurchaseOptions {
        var merged = self
        if let date = other.purchaseDate {
            merged.purchaseDate = date
            merged.renewsUntilNow = other.renewsUntilNow
        }
        if let id = other.promotionalOfferID { merged.promotionalOfferID = id }
        if let name = other.offerCodeReferenceName { merged.offerCodeReferenceName = name }
        if let plan = other.billingPlan { merged.billingPlan = plan }
        return merged
    }
}
