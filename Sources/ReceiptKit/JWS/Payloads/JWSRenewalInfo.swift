/// A signed renewal info's payload (`JWSRenewalInfoDecodedPayload` in Apple's server libraries), with Apple's JSON
/// keys and wire types. Every field is optional; absent fields are left out when encoding.
///
/// StoreKit 2 maps it to `Product.SubscriptionInfo.RenewalInfo`: `currentProductID` from ``productId``,
/// `autoRenewPreference` from ``autoRenewProductId``, `willAutoRenew` from ``autoRenewStatus``,
/// `expirationReason` from ``expirationIntent``, `isInBillingRetry` from ``isInBillingRetryPeriod``.
public struct JWSRenewalInfo: Codable, Hashable, Sendable {
    /// Why the subscription expired: 1 customer cancelled, 2 billing error, 3 no consent to a price increase,
    /// 4 product unavailable, 5 other.
    public var expirationIntent: ExpirationIntent?
    /// The original purchase's transaction identifier.
    public var originalTransactionId: String?
    /// The product the subscription renews to.
    public var autoRenewProductId: String?
    /// The current product.
    public var productId: String?
    /// 1 renews, 0 does not.
    public var autoRenewStatus: AutoRenewStatus?
    /// Whether the App Store is trying to renew an expired subscription.
    public var isInBillingRetryPeriod: Bool?
    /// 0 the customer has not responded to a price increase, 1 consented or was notified; absent, none pending.
    public var priceIncreaseStatus: PriceIncreaseStatus?
    /// When the billing grace period ends.
    public var gracePeriodExpiresDate: JWSDate?
    /// The offer type of the next renewal.
    public var offerType: JWSTransaction.OfferType?
    /// The offer's identifier.
    public var offerIdentifier: String?
    /// When the App Store signed this payload.
    public var signedDate: JWSDate?
    /// `Sandbox`, `Production`, `Xcode` or `LocalTesting`.
    public var environment: JWSEnvironment?
    /// The start of the most recent run of continuous subscription.
    public var recentSubscriptionStartDate: JWSDate?
    /// When the subscription renews next.
    public var renewalDate: JWSDate?
    /// The ISO 4217 currency code of ``renewalPrice``.
    public var currency: String?
    /// The renewal price in milli-units of ``currency``.
    public var renewalPrice: Int64?
    /// How the next renewal's offer is paid.
    public var offerDiscountType: JWSTransaction.OfferDiscountType?
    /// The offer's duration, ISO 8601.
    public var offerPeriod: String?
    /// The win-back offers the customer may redeem, best first.
    public var eligibleWinBackOfferIds: [String]?
    /// The UUID the app gave the purchase, lowercase.
    public var appAccountToken: String?
    /// The app transaction's identifier.
    public var appTransactionId: String?
    /// The billing plan of the next renewal: `BILLED_UPFRONT` or `MONTHLY` (App Store Server API 1.21).
    public var renewalBillingPlanType: JWSBillingPlanType?
    /// For a subscription billed monthly, what happens when its commitment ends (App Store Server API 1.21).
    public var commitmentInfo: JWSRenewalCommitmentInfo?

    /// Creates a payload with every field absent; set the ones to sign.
    public init() {}
}

extension JWSRenewalInfo {
    /// The `expirationIntent` of a renewal info.
    public struct ExpirationIntent: RawRepresentable, Codable, Hashable, Sendable {
        /// The raw value.
        public let rawValue: Int
        /// Creates a value from its raw value.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// 1: the customer cancelled.
        public static let customerCancelled = ExpirationIntent(rawValue: 1)
        /// 2: a billing error.
        public static let billingError = ExpirationIntent(rawValue: 2)
        /// 3: the customer did not consent to a price increase.
        public static let didNotConsentToPriceIncrease = ExpirationIntent(rawValue: 3)
        /// 4: the product was not available.
        public static let productUnavailable = ExpirationIntent(rawValue: 4)
        /// 5: another reason.
        public static let other = ExpirationIntent(rawValue: 5)
    }

    /// The `autoRenewStatus` of a renewal info.
    public struct AutoRenewStatus: RawRepresentable, Codable, Hashable, Sendable {
        /// The raw value.
        public let rawValue: Int
        /// Creates a value from its raw value.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// 0: the subscription does not renew.
        public static let off = AutoRenewStatus(rawValue: 0)
        /// 1: the subscription renews.
        public static let on = AutoRenewStatus(rawValue: 1)
    }

    /// The `priceIncreaseStatus` of a renewal info.
    public struct PriceIncreaseStatus: RawRepresentable, Codable, Hashable, Sendable {
        /// The raw value.
        public let rawValue: Int
        /// Creates a value from its raw value.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// 0: the customer has not responded to a price increase.
        public static let notResponded = PriceIncreaseStatus(rawValue: 0)
        /// 1: the customer consented to, or was notified of, a price increase.
        public static let consented = PriceIncreaseStatus(rawValue: 1)
    }
}
