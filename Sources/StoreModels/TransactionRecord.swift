public import Foundation

/// One entry of a store's purchase history: a purchase, renewal, failed or pending purchase.
///
/// The records of an account are what its app receipt lists and what a test session's `allTransactions()` returns.
public struct TransactionRecord: Sendable, Hashable, Codable, Identifiable {
    /// Why a transaction was revoked.
    public enum RevocationReason: Int, Sendable, Hashable, Codable {
        /// Refunded or revoked for another reason.
        case other = 0
        /// Refunded because of an issue in the app.
        case developerIssue = 1
    }

    /// The transaction identifier, unique in the store and never reused.
    public let id: UInt64
    /// The identifier of the first transaction of this purchase (itself for a first purchase; the first purchase of a
    /// subscription for its renewals).
    public var originalID: UInt64
    /// The account that bought it.
    public let account: String
    /// The product bought.
    public let productID: String
    /// The product's type at the time of purchase.
    public let productType: ProductType
    /// How many were bought.
    public let quantity: Int
    /// Purchased, failed or deferred (`purchasing` while the store decides).
    public var state: TransactionState
    /// When it was charged (or asked, while deferred or failed).
    public var purchaseDate: Date
    /// When the original transaction was charged.
    public var originalPurchaseDate: Date
    /// When the subscription period this transaction pays for ends.
    public var expirationDate: Date?
    /// When it was refunded or revoked.
    public var cancellationDate: Date?
    /// Why it was refunded or revoked.
    public var revocationReason: RevocationReason?
    /// For a prorated refund, the share of the transaction refunded, in thousandths of a percent (50,000 is 50 %;
    /// Apple's `revocationPercentage`); `nil` for a full refund and for a transaction not refunded.
    public var revocationPercentage: Int?
    /// The subscription period's line item identifier.
    public var webOrderLineItemID: UInt64?
    /// Whether the period is a free trial.
    public var isTrialPeriod: Bool
    /// Whether the period is a paid introductory offer.
    public var isInIntroOfferPeriod: Bool
    /// The promotional or win-back offer applied, if any.
    public var promotionalOfferID: String?
    /// The app's account identifier from the payment.
    public var applicationUsername: String?
    /// Whether the subscription renews at the end of the period.
    public var autoRenewEnabled: Bool
    /// Whether the purchase or renewal hit a billing issue to be resolved.
    public var hasPurchaseIssue: Bool
    /// Whether it waits for a parent's approval.
    public var pendingAskToBuyConfirmation: Bool
    /// Whether a price increase waits for the customer's consent.
    public var isPendingPriceIncreaseConsent: Bool
    /// Whether the subscription was replaced by a higher level of its group.
    public var isUpgraded: Bool
    /// `true` for a subscription period the store renewed by itself (StoreKit 2's `transactionReason` `RENEWAL`),
    /// `false` or `nil` for a purchase; `nil` in the records of state files written before the store recorded it.
    public var isRenewal: Bool?
    /// Why it failed, for failed transactions.
    public var failure: StoreFailure?
    /// The device the purchase was made on; `nil` for purchases made outside the app and for renewals.
    public var deviceID: String?
    /// For a transaction a family member has through Family Sharing, the purchaser's transaction it shares (the same
    /// product and purchase date, in the purchaser's account); `nil` for the account's own purchases.
    public var sharedFromID: UInt64?
    /// The billing plan the subscription period was bought or renewed under; `nil` for other products and for
    /// subscriptions whose configuration names no billing plans (and in state files written before billing plans).
    public var billingPlan: BillingPlan.Kind?
    /// For a period billed monthly, its place in the commitment; `nil` otherwise.
    public var commitment: BillingCommitment?

    /// Creates a record.
    public init(
        id: UInt64,
        originalID: UInt64? = nil,
        account: String,
        productID: String,
        productType: ProductType,
        quantity: Int,
        state: TransactionState,
        purchaseDate: Date,
        originalPurchaseDate: Date? = nil,
        expirationDate: Date? = nil,
        webOrderLineItemID: UInt64? = nil,
        isTrialPeriod: Bool = false,
        isInIntroOfferPeriod: Bool = false,
        promotionalOfferID: String? = nil,
        applicationUsername: String? = nil,
        autoRenewEnabled: Bool = false,
        deviceID: String? = nil
    ) {
        self.id = id
        self.originalID = originalID ?? id
        self.account = account
        self.productID = productID
        self.productType = productType
        self.quantity = quantity
        self.state = state
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate ?? purchaseDate
        self.expirationDate = expirationDate
        self.cancellationDate = nil
        self.revocationReason = nil
        self.revocationPercentage = nil
        self.webOrderLineItemID = webOrderLineItemID
        self.isTrialPeriod = isTrialPeriod
        self.isInIntroOfferPeriod = isInIntroOfferPeriod
        self.promotionalOfferID = promotionalOfferID
        self.applicationUsername = applicationUsername
        self.autoRenewEnabled = autoRenewEnabled
        self.hasPurchaseIssue = false
        self.pendingAskToBuyConfirmation = false
        self.isPendingPriceIncreaseConsent = false
        self.isUpgraded = false
        self.failure = nil
        self.deviceID = deviceID
    }

    /// Whether the account has this transaction through Family Sharing (ownership `FAMILY_SHARED`) rather than by
    /// buying it (`PURCHASED`).
    public var isFamilyShared: Bool { sharedFromID != nil }

    /// The shares a prorated refund may take (``revocationPercentage``), in thousandths of a percent: 1 (0.001 %) to
    /// 100,000 (100 %).
    public static let revocationPercentageRange = 1...100_000

    /// Whether this record grants its product now: purchased and not refunded.
    public var isOwned: Bool { state == .purchased && cancellationDate == nil }
}
