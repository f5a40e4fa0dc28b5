public import Foundation
import StoreModels

/// Which products grant which access levels, and how a profile is computed from verified purchases.
public struct EntitlementPolicy: Sendable, Hashable {
    /// Access level identifiers by product identifier.
    public let accessLevels: [String: Set<String>]

    /// Creates a policy: `["com.example.premium.monthly": ["premium"], "com.example.pro": ["premium", "pro"]]`.
    public init(accessLevels: [String: Set<String>]) {
        self.accessLevels = accessLevels
    }

    /// The profile at `date` from the purchases a verified receipt lists.
    ///
    /// Each product's access is `ProductAccess`'s, the definition the store and feeds share: a purchase grants its
    /// access levels while it is in force (bought, not refunded, revoked or upgraded, and, for subscriptions,
    /// unexpired); a non-consumable grants them for good. Billing retry and grace periods are known only to the store,
    /// so they are passed in by product: a subscription in a billing grace period keeps full access past its expiry
    /// until the grace period ends (`expiresAt` is then the grace period's end); in billing retry it has none.
    ///
    /// - Parameters:
    ///   - purchases: the purchases of a verified receipt.
    ///   - date: the moment the profile describes.
    ///   - gracePeriods: products in a billing grace period, with the date it ends.
    ///   - billingRetries: products in billing retry (no access).
    public func profile(
        from purchases: [EntitlementTransaction],
        at date: Date,
        gracePeriods: [String: Date] = [:],
        billingRetries: Set<String> = []
    ) -> Profile {
        var levels: [String: AccessLevel] = [:]
        var subscriptions: [SubscriptionStatus] = []
        for (productID, bought) in Self.byProduct(purchases) {
            let access = ProductAccess(
                purchases: bought.map(\.accessPurchase),
                billing: Self.billing(of: productID, gracePeriods: gracePeriods, billingRetries: billingRetries),
                at: date
            )
            // The purchase the access comes from; before the first purchase, the first one.
            guard let deciding = bought.first(where: { $0.accessPurchase == access.purchase }) ?? bought.first else {
                continue
            }
            let revoked = access.phase == .revoked
            let expiresAt = access.phase == .none ? deciding.expiresDate : access.expiresAt
            if deciding.expiresDate != nil {
                subscriptions.append(
                    SubscriptionStatus(
                        vendorProductId: productID,
                        isActive: access.hasAccess,
                        expiresAt: expiresAt,
                        isTrial: deciding.isTrialPeriod,
                        isIntroOffer: deciding.isInIntroOfferPeriod,
                        isRefunded: revoked
                    )
                )
            }
            for level in accessLevels[productID] ?? [] {
                let candidate = AccessLevel(
                    id: level,
                    isActive: access.hasAccess,
                    expiresAt: expiresAt,
                    vendorProductId: productID,
                    isInGracePeriod: access.phase == .grace,
                    isInBillingRetry: access.phase == .billingRetry,
                    isTrial: deciding.isTrialPeriod,
                    isIntroOffer: deciding.isInIntroOfferPeriod,
                    refundedAt: revoked ? deciding.cancellationDate : nil
                )
                levels[level] = Self.better(levels[level], candidate)
            }
        }
        return Profile(accessLevels: levels, subscriptions: subscriptions)
    }

    /// The first moment after `date` at which the profile of these purchases can change by time alone: a purchase
    /// starting, a period expiring, a refund taking effect, a grace period ending. `nil` when none is ahead.
    func nextChange(
        from purchases: [EntitlementTransaction], after date: Date, gracePeriods: [String: Date] = [:]
    ) -> Date? {
        var moments: [Date] = []
        for (productID, bought) in Self.byProduct(purchases) {
            let billing = gracePeriods[productID].map { ProductAccess.Billing.gracePeriod(endsAt: $0) }
            if let next = ProductAccess.nextChange(of: bought.map(\.accessPurchase), billing: billing, after: date) {
                moments.append(next)
            }
        }
        return moments.min()
    }

    /// The purchases of each product, in receipt order, sorted by product identifier.
    private static func byProduct(_ purchases: [EntitlementTransaction]) -> [(String, [EntitlementTransaction])] {
        Dictionary(grouping: purchases, by: \.productID).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The store's billing state of a product, from what a ``VerifiedPurchasesSource`` passes.
    private static func billing(of productID: String, gracePeriods: [String: Date], billingRetries: Set<String>)
        -> ProductAccess.Billing?
    {
        if let end = gracePeriods[productID] { return .gracePeriod(endsAt: end) }
        return billingRetries.contains(productID) ? .billingRetry : nil
    }

    /// The level that grants more: active beats inactive; then lifetime, then the later expiry.
    private static func better(_ current: AccessLevel?, _ candidate: AccessLevel) -> AccessLevel {
        guard let current else { return candidate }
        if current.isActive != candidate.isActive { return current.isActive ? current : candidate }
        switch (current.expiresAt, candidate.expiresAt) {
        case (nil, _): return current
        case (_, nil): return candidate
        case (let a?, let b?): return a >= b ? current : candidate
        }
    }
}
