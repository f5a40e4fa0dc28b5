extension JWSTransaction {
    /// The `type` of a transaction, with Apple's raw values.
    public struct ProductType: RawRepresentable, Codable, Hashable, Sendable {
        /// The raw value.
        public let rawValue: String
        /// Creates a value from its raw value.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// `Auto-Renewable Subscription`.
        public static let autoRenewable = ProductType(rawValue: "Auto-Renewable Subscription")
        /// `Non-Consumable`.
        public static let nonConsumable = ProductType(rawValue: "Non-Consumable")
        /// `Consumable`.
        public static let consumable = ProductType(rawValue: "Consumable")
        /// `Non-Renewing Subscription`.
        public static let nonRenewable = ProductType(rawValue: "Non-Renewing Subscription")
    }

    /// The `inAppOwnershipType` of a transaction.
    public struct OwnershipType: RawRepresentable, Codable, Hashable, Sendable {
        /// The raw value.
        public let rawValue: String
        /// Creates a value from its raw value.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// `PURCHASED`: the customer bought it.
        public static let purchased = OwnershipType(rawValue: "PURCHASED")
        /// `FAMILY_SHARED`: a family member bought it.
        public static let familyShared = OwnershipType(rawValue: "FAMILY_SHARED")
    }

    /// The `transactionReason` of a transaction.
    public struct Reason: RawRepresentable, Codable, Hashable, Sendable {
        /// The raw value.
        public let rawValue: String
        /// Creates a value from its raw value.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// `PURCHASE`: the customer bought it.
        public static let purchase = Reason(rawValue: "PURCHASE")
        /// `RENEWAL`: a subscription renewed.
        public static let renewal = Reason(rawValue: "RENEWAL")
    }

    /// The `offerType` of a transaction or renewal.
    public struct OfferType: RawRepresentable, Codable, Hashable, Sendable {
        /// The raw value.
        public let rawValue: Int
        /// Creates a value from its raw value.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// 1: an introductory offer.
        public static let introductory = OfferType(rawValue: 1)
        /// 2: a promotional offer.
        public static let promotional = OfferType(rawValue: 2)
        /// 3: an offer code.
        public static let code = OfferType(rawValue: 3)
        /// 4: a win-back offer.
        public static let winBack = OfferType(rawValue: 4)
    }

    /// The `offerDiscountType` of a transaction or renewal.
    public struct OfferDiscountType: RawRepresentable, Codable, Hashable, Sendable {
        /// The raw value.
        public let rawValue: String
        /// Creates a value from its raw value.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// `FREE_TRIAL`.
        public static let freeTrial = OfferDiscountType(rawValue: "FREE_TRIAL")
        /// `PAY_AS_YOU_GO`.
        public static let payAsYouGo = OfferDiscountType(rawValue: "PAY_AS_YOU_GO")
        /// `PAY_UP_FRONT`.
        public static let payUpFront = OfferDiscountType(rawValue: "PAY_UP_FRONT")
        /// `ONE_TIME`.
        public static let oneTime = OfferDiscountType(rawValue: "ONE_TIME")
    }

    /// The `revocationReason` of a transaction.
    public struct RevocationReason: RawRepresentable, Codable, Hashable, Sendable {
        /// The raw value.
        public let rawValue: Int
        /// Creates a value from its raw value.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// 0: another reason.
        public static let other = RevocationReason(rawValue: 0)
        /// 1: refunded because of an issue in the app.
        public static let developerIssue = RevocationReason(rawValue: 1)
    }

    /// The `revocationType` of a transaction.
    public struct RevocationType: RawRepresentable, Codable, Hashable, Sendable {
        /// The raw value.
        public let rawValue: String
        /// Creates a value from its raw value.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// `REFUND_FULL`.
        public static let refundFull = RevocationType(rawValue: "REFUND_FULL")
        /// `REFUND_PRORATED`.
        public static let refundProrated = RevocationType(rawValue: "REFUND_PRORATED")
        /// `FAMILY_REVOKE`.
        public static let familyRevoke = RevocationType(rawValue: "FAMILY_REVOKE")
    }
}
