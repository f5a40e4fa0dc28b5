public import Foundation
import ReceiptKit

extension Product.SubscriptionInfo {
    /// What the App Store will do at a subscription's next renewal, decoded from its signed renewal info.
    public struct RenewalInfo: Equatable, Hashable, Sendable, CustomDebugStringConvertible, SignedPayload {
        /// Why a subscription expired.
        public struct ExpirationReason: RawRepresentable, Equatable, Hashable, Sendable {
            /// The reason's number (the JWS `expirationIntent`).
            public let rawValue: Int
            /// Creates a reason from its number.
            ///
            /// - Parameter rawValue: The number.
            public init(rawValue: Int) { self.rawValue = rawValue }
            /// The customer turned auto-renew off.
            public static let autoRenewDisabled = ExpirationReason(rawValue: 1)
            /// Billing failed.
            public static let billingError = ExpirationReason(rawValue: 2)
            /// The customer did not consent to a price increase.
            public static let didNotConsentToPriceIncrease = ExpirationReason(rawValue: 3)
            /// The product was not available at renewal.
            public static let productUnavailable = ExpirationReason(rawValue: 4)
            /// Another reason.
            public static let unknown = ExpirationReason(rawValue: 5)
        }

        /// Whether the customer answered a price increase.
        @frozen
        public enum PriceIncreaseStatus: Equatable, Hashable, Sendable {
            /// No price increase waits.
            case noIncreasePending
            /// A price increase waits for the customer's consent.
            case pending
            /// The customer consented.
            case agreed
        }

        /// The subscription's original transaction.
        public let originalTransactionID: UInt64
        /// The product the subscription is on now.
        public let currentProductID: String
        /// Whether it renews at the end of the period.
        public let willAutoRenew: Bool
        /// The product it renews to.
        public let autoRenewPreference: String?
        /// Why it expired, once it has.
        public let expirationReason: ExpirationReason?
        /// Where a price increase stands.
        public let priceIncreaseStatus: PriceIncreaseStatus
        /// Whether billing is being retried.
        public let isInBillingRetry: Bool
        /// When the billing grace period ends.
        public let gracePeriodExpirationDate: Date?
        /// The offer applied at the next renewal.
        public let offerID: String?
        /// The kind of that offer.
        public let offerType: Transaction.OfferType?
        /// The offer that applies at the next renewal: its kind, identifier, payment mode and period (iOS 18); `nil`
        /// when none does.
        public let offer: Transaction.Offer?
        /// The win-back offers the customer may redeem now, best first (iOS 18): empty while the subscription is
        /// active, in a billing grace period or billing retry, or when no offer's conditions are met.
        public let eligibleWinBackOfferIDs: [String]
        /// The app account token of the subscription's latest purchase, if it had one (iOS 18.4).
        public let appAccountToken: UUID?
        /// The identifier of the app's download transaction (back-deployed).
        public let appTransactionID: String
        /// The price of the next renewal in units of ``currency`` (the offer's price while an offer applies; zero for
        /// a free trial); `nil` when the store does not say (iOS 18).
        public let renewalPrice: Decimal?
        /// The currency of ``renewalPrice`` (iOS 18).
        public let currency: Locale.Currency?
        /// The environment that signed it.
        public let environment: AppStore.Environment
        /// When the current run of uninterrupted periods started.
        public let recentSubscriptionStartDate: Date
        /// When the subscription renews next.
        public let renewalDate: Date?
        /// The device verification value.
        public let deviceVerification: Data
        /// Its nonce.
        public let deviceVerificationNonce: UUID
        /// When the App Store signed it.
        public let signedDate: Date
        /// The billing plan of the next renewal, for a subscription whose product offers billing plans (iOS 26.4;
        /// docs/decisions.md 109).
        public let renewalBillingPlanType: Product.SubscriptionInfo.BillingPlanType?
        /// For a subscription billed monthly, what happens when its commitment ends (iOS 26.4;
        /// docs/decisions.md 109).
        public let commitmentInfo: Product.SubscriptionInfo.RenewalInfo.CommitmentInfo?
        /// The renewal of an Advanced Commerce API subscription (iOS 18.4): always `nil`, the store sells no Advanced
        /// Commerce SKUs (docs/decisions.md 110).
        public let advancedCommerceInfo: Product.SubscriptionInfo.RenewalInfo.AdvancedCommerceInfo? = nil
        /// The JWS it was decoded from.
        public let signed: SignedJWS

        init(_ payload: JWSRenewalInfo, signed: SignedJWS) {
            originalTransactionID = payload.originalTransactionId.flatMap { UInt64($0) } ?? 0
            currentProductID = payload.productId ?? ""
            willAutoRenew = payload.autoRenewStatus == .on
            autoRenewPreference = payload.autoRenewProductId
            expirationReason = payload.expirationIntent.map { ExpirationReason(rawValue: $0.rawValue) }
            priceIncreaseStatus =
                switch payload.priceIncreaseStatus {
                case nil: .noIncreasePending
                case .some(.notResponded): .pending
                case .some: .agreed
                }
            isInBillingRetry = payload.isInBillingRetryPeriod ?? false
            gracePeriodExpirationDate = payload.gracePeriodExpiresDate?.date
            offerID = payload.offerIdentifier
            offerType = payload.offerType.map { Transaction.OfferType(rawValue: $0.rawValue) }
            offer = Transaction.Offer(
                type: payload.offerType, id: payload.offerIdentifier, discountType: payload.offerDiscountType,
                period: payload.offerPeriod)
            eligibleWinBackOfferIDs = payload.eligibleWinBackOfferIds ?? []
            appAccountToken = payload.appAccountToken.flatMap { UUID(uuidString: $0) }
            appTransactionID = payload.appTransactionId ?? ""
            renewalPrice = payload.renewalPrice.map(Transaction.units(fromMilliUnits:))
            currency = payload.currency.map { Locale.Currency($0) }
            environment = AppStore.Environment(rawValue: payload.environment?.rawValue ?? "")
            recentSubscriptionStartDate = payload.recentSubscriptionStartDate?.date ?? Date(timeIntervalSince1970: 0)
            renewalDate = payload.renewalDate?.date
            deviceVerification = Data()
            deviceVerificationNonce = UUID(uuid: UUID.null)
            signedDate = payload.signedDate?.date ?? Date(timeIntervalSince1970: 0)
            renewalBillingPlanType = payload.renewalBillingPlanType.map(Product.SubscriptionInfo.BillingPlanType.init)
            commitmentInfo = CommitmentInfo(payload.commitmentInfo)
            self.signed = signed
        }

        /// The payload as JSON, with Apple's keys.
        public var jsonRepresentation: Data { signed.payloadData }

        /// The environment's name (use ``environment``).
        public var environmentStringRepresentation: String { environment.rawValue }

        /// How the offer of the next renewal is paid, as signed renewal info spells it (`FREE_TRIAL`,
        /// `PAY_AS_YOU_GO`, `PAY_UP_FRONT`); `nil` without an offer (use ``offer``).
        public var offerPaymentModeStringRepresentation: String? { offer?.paymentMode?.rawValue }

        /// A description for debugging: the payload.
        public var debugDescription: String { String(decoding: signed.payloadData, as: UTF8.self) }
    }
}

extension UUID {
    /// The bytes of the all-zero UUID.
    static let null: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
}
