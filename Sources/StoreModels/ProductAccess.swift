public import Foundation

/// Whether a customer has access to a product at a moment, and why: the one definition the store, feeds, profiles and
/// receipt-based entitlements share.
///
/// Access is computed from the product's purchases (store records, receipt entries) and, for an auto-renewable
/// subscription, the billing state only the store knows (a billing grace period, billing retry), at one moment:
///
/// 1. A purchase in force grants access (``Phase/active``): bought by then, not cancelled by then, and unexpired (a
///    purchase without an expiration date, such as a non-consumable, never expires).
/// 2. Otherwise the latest purchase (the last one bought) decides. Cancelled because the customer upgraded within the
///    subscription group, it is ``Phase/upgraded``; refunded or revoked, ``Phase/revoked``. Neither grants access,
///    from the cancellation on.
/// 3. Expired while the store retries billing: until the billing grace period ends (Apple's
///    `gracePeriodExpirationDate`), ``Phase/grace``, with full access; after it, or without one,
///    ``Phase/billingRetry``, without access.
/// 4. Otherwise ``Phase/expired``; with no purchase at all, ``Phase/none``.
///
/// Only ``Phase/active`` and ``Phase/grace`` grant access (``hasAccess``).
public struct ProductAccess: Sendable, Hashable {
    /// Where a product stands for a customer. Raw values are the names feeds use (`expect phase PRODUCT grace`).
    public enum Phase: String, Sendable, Hashable, Codable, CaseIterable {
        /// A purchase is in force: bought, not cancelled, not expired.
        case active
        /// The subscription's period ended and a renewal failed; billing is retried and the customer keeps full access
        /// until the billing grace period ends.
        case grace
        /// The subscription's period ended and a renewal failed; billing is retried with no access (the grace period
        /// is over, or there is none).
        case billingRetry = "billing-retry"
        /// The latest purchase ended: not renewed, or billing retry gave up.
        case expired
        /// The latest purchase was refunded or revoked.
        case revoked
        /// The latest purchase was replaced by a higher level of its subscription group (which has access of its own).
        case upgraded
        /// Never bought (or not yet, at the moment asked about).
        case none

        /// Whether the phase grants access: ``active`` and ``grace`` do, every other phase does not.
        public var grantsAccess: Bool { self == .active || self == .grace }
    }

    /// One purchase of the product: what access depends on, as a store record or a receipt entry gives it.
    public struct Purchase: Sendable, Hashable {
        /// When it was charged.
        public var purchaseDate: Date
        /// When the period it pays for ends; `nil` for purchases that do not expire.
        public var expiresDate: Date?
        /// When it was refunded, revoked or replaced by an upgrade.
        public var cancellationDate: Date?
        /// Whether the cancellation is an upgrade within the subscription group rather than a refund.
        public var isUpgraded: Bool

        /// Creates a purchase.
        public init(purchaseDate: Date, expiresDate: Date?, cancellationDate: Date? = nil, isUpgraded: Bool = false) {
            self.purchaseDate = purchaseDate
            self.expiresDate = expiresDate
            self.cancellationDate = cancellationDate
            self.isUpgraded = isUpgraded
        }

        /// Whether it grants access at `date`: bought by then, not cancelled by then, and unexpired.
        public func isInForce(at date: Date) -> Bool {
            purchaseDate <= date && !isCancelled(at: date) && (expiresDate.map { $0 > date } ?? true)
        }

        /// Whether it was cancelled (refunded, revoked or upgraded) by `date`.
        public func isCancelled(at date: Date) -> Bool { cancellationDate.map { $0 <= date } ?? false }
    }

    /// The billing state of the product's subscription, as the store reports it (it is not in receipts).
    public enum Billing: Sendable, Hashable {
        /// A renewal failed and billing is retried, with access until the billing grace period ends.
        case gracePeriod(endsAt: Date)
        /// A renewal failed and billing is retried, without access.
        case billingRetry
    }

    /// Where the product stands.
    public let phase: Phase
    /// The purchase the phase comes from: the purchase in force that lasts longest (one that does not expire first), or
    /// else the latest one. `nil` in ``Phase/none``.
    public let purchase: Purchase?
    /// When access ends by time alone, or ended: in ``Phase/grace`` the end of the grace period, otherwise the deciding
    /// purchase's expiration date (`nil` for a purchase that does not expire, and in ``Phase/none``).
    public let expiresAt: Date?

    /// Whether the customer has access: the phase is ``Phase/active`` or ``Phase/grace``.
    public var hasAccess: Bool { phase.grantsAccess }

    /// Where a product stands at `date`.
    ///
    /// - Parameters:
    ///   - purchases: every purchase of the product by the customer (failed and pending ones left out), oldest first:
    ///     of purchases made at the same instant, the later one in the sequence counts as the latest.
    ///   - billing: the store's billing state of the product's subscription, if a renewal of it failed.
    ///   - date: the moment asked about.
    public init(purchases: some Sequence<Purchase>, billing: Billing? = nil, at date: Date) {
        var inForce: Purchase?
        var latest: Purchase?
        for purchase in purchases where purchase.purchaseDate <= date {
            if latest.map({ $0.purchaseDate <= purchase.purchaseDate }) ?? true { latest = purchase }
            guard purchase.isInForce(at: date) else { continue }
            if let current = inForce {
                switch (current.expiresDate, purchase.expiresDate) {
                case (nil, _): continue
                case (_?, nil): inForce = purchase
                case (let a?, let b?): if b > a { inForce = purchase }
                }
            } else {
                inForce = purchase
            }
        }
        if let inForce {
            self.init(phase: .active, purchase: inForce, expiresAt: inForce.expiresDate)
            return
        }
        guard let latest else {
            self.init(phase: .none, purchase: nil, expiresAt: nil)
            return
        }
        if latest.isCancelled(at: date) {
            self.init(phase: latest.isUpgraded ? .upgraded : .revoked, purchase: latest, expiresAt: latest.expiresDate)
            return
        }
        switch billing {
        case .gracePeriod(let end) where end > date:
            self.init(phase: .grace, purchase: latest, expiresAt: end)
        case .gracePeriod, .billingRetry:
            self.init(phase: .billingRetry, purchase: latest, expiresAt: latest.expiresDate)
        case nil:
            self.init(phase: .expired, purchase: latest, expiresAt: latest.expiresDate)
        }
    }

    private init(phase: Phase, purchase: Purchase?, expiresAt: Date?) {
        self.phase = phase
        self.purchase = purchase
        self.expiresAt = expiresAt
    }

    /// The first moment after `date` at which access to the product can change by time alone (a purchase starting, a
    /// period expiring, a cancellation taking effect, a grace period ending); `nil` when none is ahead.
    public static func nextChange(
        of purchases: some Sequence<Purchase>, billing: Billing? = nil, after date: Date
    ) -> Date? {
        var next: Date?
        func consider(_ moment: Date?) {
            guard let moment, moment > date else { return }
            if next.map({ moment < $0 }) ?? true { next = moment }
        }
        for purchase in purchases {
            consider(purchase.purchaseDate)
            consider(purchase.expiresDate)
            consider(purchase.cancellationDate)
        }
        if case .gracePeriod(let end) = billing { consider(end) }
        return next
    }
}
