public import Foundation
public import StoreModels

/// Where a ``PurchaseController`` gets the purchases its profile is computed from: a verified receipt, never the
/// client's own word.
public protocol VerifiedPurchasesSource: Sendable {
    /// The purchases of the current, verified receipt, the moment they describe, and the products whose subscriptions
    /// are in a billing grace period (with its end) or in billing retry.
    ///
    /// - Throws: ``PurchasesError`` with code `receiptInvalid` when there is no receipt or it does not verify.
    func verifiedPurchases() throws(PurchasesError) -> VerifiedPurchases
}

/// What a verified receipt says, ready for an ``EntitlementPolicy``.
public struct VerifiedPurchases: Sendable, Hashable {
    /// The purchases.
    public let purchases: [EntitlementTransaction]
    /// The moment the profile describes (the store's now).
    public let date: Date
    /// Products in a billing grace period, with its end.
    public let gracePeriods: [String: Date]
    /// Products in billing retry.
    public let billingRetries: Set<String>

    /// Creates verified purchases.
    public init(
        purchases: [EntitlementTransaction],
        date: Date,
        gracePeriods: [String: Date] = [:],
        billingRetries: Set<String> = []
    ) {
        self.purchases = purchases
        self.date = date
        self.gracePeriods = gracePeriods
        self.billingRetries = billingRetries
    }

    /// Creates verified purchases with the store's billing state of each product whose renewal failed
    /// (`StoreEnvironment.billing(of:)`).
    public init(purchases: [EntitlementTransaction], date: Date, billing: [String: ProductAccess.Billing]) {
        var grace: [String: Date] = [:]
        var retry = Set<String>()
        for (productID, state) in billing {
            switch state {
            case .gracePeriod(let end): grace[productID] = end
            case .billingRetry: retry.insert(productID)
            }
        }
        self.init(purchases: purchases, date: date, gracePeriods: grace, billingRetries: retry)
    }
}
