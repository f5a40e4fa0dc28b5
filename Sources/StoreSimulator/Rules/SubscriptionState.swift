public import Foundation
public import StoreModels

/// Where an account's subscription in one group stands.
public struct SubscriptionState: Sendable, Hashable, Codable {
    /// The phase of a subscription.
    public enum Phase: String, Sendable, Hashable, Codable {
        /// Paid and running.
        case active
        /// A renewal failed; the customer keeps access while billing is retried, until the grace period ends.
        case gracePeriod
        /// A renewal failed; the customer has no access while billing is retried.
        case billingRetry
        /// Ended: cancelled, expired, refunded or billing retry gave up.
        case expired
    }

    /// The account.
    public let account: String
    /// The subscription group.
    public let groupID: String
    /// The first transaction of the subscription.
    public let originalID: UInt64
    /// The product of the current period.
    public var productID: String
    /// The product the next period renews to (differs after a downgrade).
    public var renewalProductID: String
    /// The latest transaction (the current period's).
    public var latestRecordID: UInt64
    /// When the current period ends.
    public var expiresAt: Date
    /// Whether it renews at the end of the period.
    public var autoRenew: Bool
    /// Where it stands.
    public var phase: Phase
    /// When the grace period ends, while in grace period.
    public var gracePeriodEndsAt: Date?
    /// When billing retry gives up, while in grace period or billing retry.
    public var billingRetryEndsAt: Date?
    /// How many periods have been paid for, the first purchase included.
    public var periodsPaid: Int
    /// Whether a price increase waits for consent.
    public var pendingPriceIncrease: Bool
    /// The offer the subscription is in (introductory or promotional), while periods of it are left; or a promotional
    /// offer redeemed on the running subscription, which begins at the next renewal.
    public var offer: ProductOffer?
    /// How many more periods the offer covers after the current one (from the next renewal on).
    public var offerPeriodsLeft: Int
    /// When the renewal that hit a billing issue was due, while in grace period or billing retry.
    public var billingIssueStartedAt: Date?
    /// When billing is next retried, while in grace period or billing retry.
    public var nextRetryAttemptAt: Date?
    /// How many billing retry attempts have failed since the renewal failed.
    public var failedRetryAttempts: Int
    /// The start of the run of regular periods the current period belongs to, so that renewals land on the same day
    /// of the month (a subscription bought on January 31 renews on February 28, then March 31).
    var periodAnchor: Date?
    /// How many regular periods after ``periodAnchor`` the current period ends.
    var periodsSinceAnchor: Int

    /// Whether the customer has access now: active or in grace period, as `ProductAccess` defines access.
    public var grantsAccess: Bool { accessPhase.grantsAccess }

    /// When the store next has to act on the subscription: renew or expire it at the end of the period, retry billing,
    /// end the grace period or billing retry. `nil` once expired.
    public var nextEventDate: Date? {
        switch phase {
        case .active:
            return expiresAt
        case .gracePeriod:
            return [nextRetryAttemptAt, gracePeriodEndsAt, billingRetryEndsAt].compactMap { $0 }.min()
        case .billingRetry:
            return [nextRetryAttemptAt, billingRetryEndsAt].compactMap { $0 }.min()
        case .expired:
            return nil
        }
    }

    init(account: String, groupID: String, record: TransactionRecordSnapshot) {
        self.account = account
        self.groupID = groupID
        self.originalID = record.originalID
        self.productID = record.productID
        self.renewalProductID = record.productID
        self.latestRecordID = record.id
        self.expiresAt = record.expiresAt
        self.autoRenew = true
        self.phase = .active
        self.gracePeriodEndsAt = nil
        self.billingRetryEndsAt = nil
        self.periodsPaid = 1
        self.pendingPriceIncrease = false
        self.offer = nil
        self.offerPeriodsLeft = 0
        self.billingIssueStartedAt = nil
        self.nextRetryAttemptAt = nil
        self.failedRetryAttempts = 0
        self.periodAnchor = nil
        self.periodsSinceAnchor = 0
    }
}

/// The parts of a record a subscription starts from.
struct TransactionRecordSnapshot {
    var id: UInt64
    var originalID: UInt64
    var productID: String
    var expiresAt: Date
}
