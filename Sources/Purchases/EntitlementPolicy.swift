public import Foundation

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
    /// A purchase grants its access levels while it is not refunded and, for subscriptions, until it expires; a
    /// non-consumable grants them for good. Billing retry and grace periods are known only to the store, so they are
    /// passed in by product (`billingIssues`): a product in grace period stays active past its expiry until the grace
    /// period ends.
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
        var latest: [String: EntitlementTransaction] = [:]
        for purchase in purchases {
            if let current = latest[purchase.productID],
                (current.expiresDate ?? current.purchaseDate) >= (purchase.expiresDate ?? purchase.purchaseDate)
            {
                continue
            }
            latest[purchase.productID] = purchase
        }
        var subscriptions: [SubscriptionStatus] = []
        for (productID, purchase) in latest.sorted(by: { $0.key < $1.key }) {
            let graceEnd = gracePeriods[productID]
            let refunded = purchase.cancellationDate.map { $0 <= date } ?? false
            let inGrace = !refunded && graceEnd.map { $0 > date } ?? false
            let unexpired = purchase.expiresDate.map { $0 > date } ?? true
            let active = !refunded && (unexpired || inGrace) && purchase.purchaseDate <= date
            let expiresAt = inGrace ? graceEnd : purchase.expiresDate
            if purchase.expiresDate != nil {
                subscriptions.append(
                    SubscriptionStatus(
                        vendorProductId: productID,
                        isActive: active,
                        expiresAt: expiresAt,
                        isTrial: purchase.isTrialPeriod,
                        isIntroOffer: purchase.isInIntroOfferPeriod,
                        isRefunded: refunded
                    )
                )
            }
            for level in accessLevels[productID] ?? [] {
                let candidate = AccessLevel(
                    id: level,
                    isActive: active,
                    expiresAt: expiresAt,
                    vendorProductId: productID,
                    isInGracePeriod: inGrace,
                    isInBillingRetry: billingRetries.contains(productID),
                    isTrial: purchase.isTrialPeriod,
                    isIntroOffer: purchase.isInIntroOfferPeriod,
                    refundedAt: refunded ? purchase.cancellationDate : nil
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
        var moments = Array(gracePeriods.values)
        for purchase in purchases {
            moments.append(purchase.purchaseDate)
            if let expires = purchase.expiresDate { moments.append(expires) }
            if let cancelled = purchase.cancellationDate { moments.append(cancelled) }
        }
        return moments.filter { $0 > date }.min()
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
