public import Foundation

/// Something that happened to a subscription: a renewal, a failed renewal, the start or end of a grace period, a
/// billing retry attempt, a recovery, an expiry.
///
/// Moving a store's clock (``SimulatedStore/advance(to:)``) returns the events that fell due, in time order.
public struct SubscriptionEvent: Sendable, Hashable, CustomStringConvertible {
    /// Why a subscription ended.
    public enum ExpirationReason: String, Sendable, Hashable, Codable {
        /// Auto-renew was off at the end of the period (the customer cancelled, or declined a price increase).
        case autoRenewDisabled
        /// A price increase still waited for the customer's consent at the end of the period.
        case priceIncreaseNotConsented
        /// Billing retry ended without recovering the subscription.
        case billingRetryEnded
        /// The product to renew to left the catalog.
        case productUnavailable
        /// A test expired it (`expireSubscription`).
        case expiredByTest
        /// The current period was refunded.
        case refunded
    }

    /// What happened.
    public enum Kind: Sendable, Hashable {
        /// The subscription renewed: a new purchased transaction (``SubscriptionEvent/transactionID``).
        case renewed
        /// A renewal failed with a billing issue; billing retry begins.
        case renewalFailed
        /// The customer keeps access while billing is retried.
        case gracePeriodStarted
        /// The grace period ended; billing retry goes on without access.
        case gracePeriodEnded
        /// Billing was retried and failed again.
        case billingRetryFailed
        /// Billing retry succeeded: a new purchased transaction (``SubscriptionEvent/transactionID``).
        case recovered
        /// The subscription ended.
        case expired(ExpirationReason)
    }

    /// What happened.
    public let kind: Kind
    /// When it happened, in store time.
    public let date: Date
    /// The account.
    public let account: String
    /// The subscription group.
    public let groupID: String
    /// The product of the period that begins (renewals, recoveries) or ends.
    public let productID: String
    /// The first transaction of the subscription.
    public let originalID: UInt64
    /// The new transaction, for renewals and recoveries.
    public let transactionID: UInt64?

    /// Creates an event.
    public init(
        kind: Kind,
        date: Date,
        account: String,
        groupID: String,
        productID: String,
        originalID: UInt64,
        transactionID: UInt64? = nil
    ) {
        self.kind = kind
        self.date = date
        self.account = account
        self.groupID = groupID
        self.productID = productID
        self.originalID = originalID
        self.transactionID = transactionID
    }

    /// The kind's name, such as `renewed` or `expired(autoRenewDisabled)`.
    public var kindName: String {
        switch kind {
        case .renewed: "renewed"
        case .renewalFailed: "renewalFailed"
        case .gracePeriodStarted: "gracePeriodStarted"
        case .gracePeriodEnded: "gracePeriodEnded"
        case .billingRetryFailed: "billingRetryFailed"
        case .recovered: "recovered"
        case .expired(let reason): "expired(\(reason.rawValue))"
        }
    }

    /// `2026-02-01T00:00:00Z renewed com.example.monthly account=default original=… transaction=…`.
    public var description: String {
        var text =
            "\(date.ISO8601Format()) \(kindName) \(productID) account=\(account) original=\(originalID)"
        if let transactionID { text += " transaction=\(transactionID)" }
        return text
    }
}
