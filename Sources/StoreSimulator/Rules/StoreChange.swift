public import Foundation
public import StoreModels

/// One change the store applied, as its change observers hear it (``SimulatedStore/addChangeObserver(_:)``): every
/// purchase, renewal, billing issue, expiry, refund and change of renewal settings, once each, in the order the store
/// applied them.
///
/// A purchase or renewal shared through Family Sharing is told once more for each other member of the purchaser's
/// family, with the same kind (``Kind/oneTimePurchase``, ``Kind/subscribed(resubscribed:)``, ``Kind/renewed``), the
/// member's account and the member's own transaction (`TransactionRecord.isFamilyShared`), and no
/// subscription: the subscription is the purchaser's.
///
/// A change carries the transaction and the subscription as they stood right after it, so that what is told or signed
/// of it is of its moment even when the store has moved on since (a move of the clock by a year makes twelve renewals
/// before anyone hears of the first): sign them with ``SimulatedStore/signedTransactionValue(of:)`` and
/// ``SimulatedStore/signedRenewalInfoValue(of:)``, which sign at ``date``.
public struct StoreChange: Sendable, Hashable, CustomStringConvertible {
    /// How a purchase of a subscription stands to the subscription the account had in the group.
    public enum ProductChange: Sendable, Hashable {
        /// The same product: nothing changes but the offer.
        case sameProduct
        /// A higher level, or the same level with a period of the same duration: in effect at once.
        case upgrade
        /// A lower level, or the same level with a period of another duration: in effect at the next renewal.
        case downgrade
    }

    /// What changed.
    public enum Kind: Sendable, Hashable {
        /// A one-time product was bought and charged: a consumable, a non-consumable not owned yet, a non-renewing
        /// subscription. ``StoreChange/transaction`` is its record.
        case oneTimePurchase
        /// An auto-renewable subscription was bought with no running subscription in its group: the first in the
        /// group (`resubscribed` false), or after the group's subscription expired (`resubscribed` true). The
        /// transaction is the new period.
        case subscribed(resubscribed: Bool)
        /// A subscription was bought over the running one of its group and replaced it at once (an upgrade, or a
        /// crossgrade of the same duration); `fromProductID` is the product replaced. The transaction is the new
        /// period; the replaced one is refunded as upgraded.
        case upgraded(fromProductID: String)
        /// The product the running subscription renews to changed: to another product (a downgrade, or a crossgrade
        /// of another duration, bought to take effect at the next renewal), or back to the current product (the
        /// pending change cancelled, when ``StoreChange/subscription``'s product is `toProductID`).
        case renewalProductChanged(toProductID: String)
        /// A promotional offer was redeemed while the group's subscription was active: for the same product
        /// (`.sameProduct`: the offer applies from the next renewal), to upgrade (`.upgrade`: the transaction is the new
        /// period, in the offer, at once) or to downgrade (`.downgrade`: the offer applies with the lower product from
        /// the next renewal). An offer redeemed after the subscription expired is ``subscribed(resubscribed:)``.
        case offerRedeemed(offerID: String, ProductChange)
        /// The subscription renewed by itself: the transaction is the new period.
        case renewed
        /// A renewal failed with a billing issue and billing retry began; with `gracePeriod`, in a billing grace
        /// period that keeps the customer's access.
        case renewalFailed(gracePeriod: Bool)
        /// The billing grace period ended; billing retry goes on without access.
        case gracePeriodEnded
        /// Billing was retried and failed again.
        case billingRetryFailed
        /// Billing succeeded after a billing issue: the transaction is the new period.
        case billingRecovered
        /// The subscription ended, for the reason given. A refund of its current period ends it too, told as
        /// ``refunded(_:)`` alone.
        case expired(SubscriptionEvent.ExpirationReason)
        /// A purchased transaction was refunded: the transaction carries its revocation date and reason.
        case refunded(TransactionRecord.RevocationReason)
        /// The refund of a transaction was reversed (``SimulatedStore/reverseRefund(transactionID:)``): the transaction
        /// is a plain purchase again, without a revocation date or reason; the subscription, when its current period
        /// was the one refunded, has it back.
        case refundReversed
        /// The customer asked for a refund of a purchased transaction, for the reason given; the App Store decides
        /// later (``SimulatedStore/refund(_:reason:percentage:)`` or ``SimulatedStore/declineRefund(_:)``).
        case refundRequested(RefundRequestReason)
        /// The App Store declined a refund the customer asked for: the transaction stays purchased.
        case refundDeclined
        /// Auto-renew was turned on or off.
        case autoRenewChanged(enabled: Bool)
        /// A price increase was announced and waits for the customer's consent.
        case priceIncreaseRequested
        /// The customer consented to the pending price increase.
        case priceIncreaseConsented
        /// The customer declined the pending price increase: auto-renew is off.
        case priceIncreaseDeclined
        /// The renewal date of an active subscription moved later by `seconds`, at no charge.
        case renewalDateExtended(seconds: TimeInterval)
        /// A family member's shared transaction (`TransactionRecord.isFamilyShared`) was revoked: the
        /// purchaser was refunded, or the purchaser or the member left the family. The transaction carries its
        /// revocation date.
        case familyRevoked
    }

    /// What changed.
    public let kind: Kind
    /// When, on the store's clock.
    public let date: Date
    /// The account.
    public let account: String
    /// The transaction the change is about, as it stood right after the change: the purchase or new period, the
    /// refunded transaction, the subscription's latest transaction for changes of its renewal settings.
    public let transaction: TransactionRecord
    /// The subscription, as it stood right after the change; `nil` for products that are not auto-renewable
    /// subscriptions.
    public let subscription: SubscriptionState?

    /// Creates a change.
    public init(
        kind: Kind, date: Date, account: String, transaction: TransactionRecord, subscription: SubscriptionState?
    ) {
        self.kind = kind
        self.date = date
        self.account = account
        self.transaction = transaction
        self.subscription = subscription
    }

    /// The first transaction of the subscription, or the transaction itself.
    public var originalTransactionID: UInt64 { subscription?.originalID ?? transaction.originalID }

    /// The kind's name, such as `renewed` or `expired(autoRenewDisabled)`.
    public var kindName: String {
        switch kind {
        case .oneTimePurchase: "oneTimePurchase"
        case .subscribed(let resubscribed): resubscribed ? "resubscribed" : "subscribed"
        case .upgraded(let from): "upgraded(from: \(from))"
        case .renewalProductChanged(let to): "renewalProductChanged(to: \(to))"
        case .offerRedeemed(let offerID, let change): "offerRedeemed(\(offerID), \(change))"
        case .renewed: "renewed"
        case .renewalFailed(let grace): grace ? "renewalFailed(gracePeriod)" : "renewalFailed"
        case .gracePeriodEnded: "gracePeriodEnded"
        case .billingRetryFailed: "billingRetryFailed"
        case .billingRecovered: "billingRecovered"
        case .expired(let reason): "expired(\(reason.rawValue))"
        case .refunded(let reason): "refunded(\(reason))"
        case .refundReversed: "refundReversed"
        case .refundRequested(let reason): "refundRequested(\(reason.rawValue))"
        case .refundDeclined: "refundDeclined"
        case .autoRenewChanged(let enabled): enabled ? "autoRenewEnabled" : "autoRenewDisabled"
        case .priceIncreaseRequested: "priceIncreaseRequested"
        case .priceIncreaseConsented: "priceIncreaseConsented"
        case .priceIncreaseDeclined: "priceIncreaseDeclined"
        case .renewalDateExtended(let seconds): "renewalDateExtended(\(seconds)s)"
        case .familyRevoked: "familyRevoked"
        }
    }

    /// `2026-02-01T00:00:00Z renewed com.example.monthly account=default transaction=…`.
    public var description: String {
        "\(date.ISO8601Format()) \(kindName) \(transaction.productID) account=\(account) "
            + "transaction=\(transaction.id) original=\(originalTransactionID)"
    }
}
