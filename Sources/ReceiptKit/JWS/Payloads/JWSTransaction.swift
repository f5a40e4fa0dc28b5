/// A signed transaction's payload (`JWSTransactionDecodedPayload` in Apple's server libraries), with Apple's JSON
/// keys and wire types: identifiers as strings, dates as milliseconds (``JWSDate``), prices in milli-units of the
/// currency (`price` 1990 is 1.99), enumerations as Apple's raw values. Every field is optional, as in Apple's model;
/// absent fields are left out when encoding.
///
/// StoreKit 2 maps it to `Transaction`: `id` from ``transactionId``, `appBundleID` from ``bundleId``,
/// `purchasedQuantity` from ``quantity``, `ownershipType` from ``inAppOwnershipType``, `reason` from
/// ``transactionReason``, `price` (in currency units) from ``price`` / 1000.
public struct JWSTransaction: Codable, Hashable, Sendable {
    /// The transaction's identifier (`Transaction.id`), a string of digits.
    public var transactionId: String?
    /// The original purchase's transaction identifier (`Transaction.originalID`).
    public var originalTransactionId: String?
    /// The identifier of a subscription purchase event across devices.
    public var webOrderLineItemId: String?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The product identifier.
    public var productId: String?
    /// The subscription group of an auto-renewable subscription.
    public var subscriptionGroupIdentifier: String?
    /// When the App Store charged the account (for a renewal, when it renewed).
    public var purchaseDate: JWSDate?
    /// The purchase date of the original transaction.
    public var originalPurchaseDate: JWSDate?
    /// When a subscription expires or renews.
    public var expiresDate: JWSDate?
    /// The number of consumables bought (Int32 on the wire).
    public var quantity: Int32?
    /// The product type: `Consumable`, `Non-Consumable`, `Non-Renewing Subscription`, `Auto-Renewable Subscription`.
    public var type: ProductType?
    /// The UUID the app gave the purchase (`appAccountToken`), lowercase.
    public var appAccountToken: String?
    /// `PURCHASED` or `FAMILY_SHARED`.
    public var inAppOwnershipType: OwnershipType?
    /// When the App Store signed this payload.
    public var signedDate: JWSDate?
    /// Why the App Store refunded or revoked the transaction: 0 other, 1 an issue in the app.
    public var revocationReason: RevocationReason?
    /// When the App Store refunded or revoked the transaction.
    public var revocationDate: JWSDate?
    /// Whether the customer upgraded to another subscription of the group.
    public var isUpgraded: Bool?
    /// The offer type: 1 introductory, 2 promotional, 3 offer code, 4 win-back.
    public var offerType: OfferType?
    /// The offer's identifier (promotional offers and offer codes; nil for introductory offers).
    public var offerIdentifier: String?
    /// `Sandbox`, `Production`, `Xcode` or `LocalTesting`.
    public var environment: JWSEnvironment?
    /// The storefront's ISO 3166-1 alpha-3 country code, for example `USA`.
    public var storefront: String?
    /// The storefront's App Store identifier, for example `143441`.
    public var storefrontId: String?
    /// `PURCHASE` or `RENEWAL`.
    public var transactionReason: Reason?
    /// The ISO 4217 currency code of ``price``.
    public var currency: String?
    /// The price in milli-units of ``currency`` (1990 is 1.99; Int64 on the wire).
    public var price: Int64?
    /// How an offer is paid: `FREE_TRIAL`, `PAY_AS_YOU_GO`, `PAY_UP_FRONT`, `ONE_TIME`.
    public var offerDiscountType: OfferDiscountType?
    /// The offer's duration, ISO 8601 (for example `P1M`).
    public var offerPeriod: String?
    /// The app transaction's identifier.
    public var appTransactionId: String?
    /// `REFUND_FULL`, `REFUND_PRORATED` or `FAMILY_REVOKE`.
    public var revocationType: RevocationType?
    /// The refunded or revoked percentage of the transaction in milli-units (Int32: 50000 is 50%).
    public var revocationPercentage: Int32?
    /// The device verification value (base64 of a SHA-384 digest).
    public var deviceVerification: String?
    /// The nonce of the device verification value, a UUID, lowercase.
    public var deviceVerificationNonce: String?
    /// The subscription's billing plan: `BILLED_UPFRONT` or `MONTHLY` (App Store Server API 1.21).
    public var billingPlanType: JWSBillingPlanType?
    /// For a period billed monthly, its place in the commitment (App Store Server API 1.21).
    public var commitmentInfo: JWSTransactionCommitmentInfo?

    /// Creates a payload with every field absent; set the ones to sign.
    public init() {}
}
