import ReceiptKit

extension Transaction {
    /// Why a transaction was refunded or revoked.
    public struct RevocationReason: RawRepresentable, Equatable, Hashable, Sendable {
        /// The reason's number (the JWS `revocationReason`).
        public let rawValue: Int
        /// Creates a reason from its number.
        ///
        /// - Parameter rawValue: The number.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Refunded because of an issue in the app.
        public static let developerIssue = RevocationReason(rawValue: 1)
        /// Another reason.
        public static let other = RevocationReason(rawValue: 0)
    }

    /// The kind of offer a transaction used.
    public struct OfferType: RawRepresentable, Equatable, Hashable, Sendable {
        /// The kind's number (the JWS `offerType`).
        public let rawValue: Int
        /// Creates a kind from its number.
        ///
        /// - Parameter rawValue: The number.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// An introductory offer.
        public static let introductory = OfferType(rawValue: 1)
        /// A promotional offer.
        public static let promotional = OfferType(rawValue: 2)
        /// An offer code.
        public static let code = OfferType(rawValue: 3)
        /// A win-back offer.
        public static let winBack = OfferType(rawValue: 4)
    }

    /// Whether the customer bought the product or a family member shares it.
    public struct OwnershipType: RawRepresentable, Equatable, Hashable, Sendable {
        /// The JWS spelling: `PURCHASED` or `FAMILY_SHARED`.
        public let rawValue: String
        /// Creates an ownership type from its spelling.
        ///
        /// - Parameter rawValue: The spelling.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Bought by the customer.
        public static let purchased = OwnershipType(rawValue: "PURCHASED")
        /// Shared by a family member.
        public static let familyShared = OwnershipType(rawValue: "FAMILY_SHARED")
    }

    /// Why a transaction exists: a purchase or a renewal.
    public struct Reason: RawRepresentable, Equatable, Hashable, Sendable {
        /// The JWS spelling: `PURCHASE` or `RENEWAL`.
        public let rawValue: String
        /// Creates a reason from its spelling.
        ///
        /// - Parameter rawValue: The spelling.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The customer bought it.
        public static let purchase = Reason(rawValue: "PURCHASE")
        /// A subscription renewed.
        public static let renewal = Reason(rawValue: "RENEWAL")
    }

    /// The offer a transaction used.
    public struct Offer: Equatable, Hashable, Sendable {
        /// How an offer is paid.
        public struct PaymentMode: RawRepresentable, Equatable, Hashable, Sendable {
            /// The JWS spelling (`offerDiscountType`).
            public let rawValue: String
            /// Creates a mode from its spelling.
            ///
            /// - Parameter rawValue: The spelling.
            public init(rawValue: String) { self.rawValue = rawValue }
            /// Free.
            public static let freeTrial = PaymentMode(rawValue: "FREE_TRIAL")
            /// A reduced price each period.
            public static let payAsYouGo = PaymentMode(rawValue: "PAY_AS_YOU_GO")
            /// One reduced price up front.
            public static let payUpFront = PaymentMode(rawValue: "PAY_UP_FRONT")
            /// A one-time price.
            public static let oneTime = PaymentMode(rawValue: "ONE_TIME")
        }

        /// The offer's identifier; `nil` for an introductory offer.
        public let id: String?
        /// The kind of offer.
        public let type: Transaction.OfferType
        /// How it is paid.
        public let paymentMode: Transaction.Offer.PaymentMode?
        /// The length of the offer.
        public let period: Product.SubscriptionPeriod?
    }
}

extension Transaction.Offer {
    /// The offer a signed transaction or renewal info names, or `nil` when it names none.
    init?(
        type: JWSTransaction.OfferType?, id: String?, discountType: JWSTransaction.OfferDiscountType?,
        period: String?
    ) {
        guard let type else { return nil }
        self.init(
            id: id, type: Transaction.OfferType(rawValue: type.rawValue),
            paymentMode: discountType.map { PaymentMode(rawValue: $0.rawValue) },
            period: period.flatMap { Product.SubscriptionPeriod(iso8601: $0) })
    }
}
