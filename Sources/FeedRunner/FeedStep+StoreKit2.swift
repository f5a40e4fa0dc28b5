public import StoreModels

extension FeedStep {
    /// An `sk2 ...` step: what the app does through StoreKit 2 on the current user's device.
    public enum StoreKit2Step: Sendable, Hashable {
        /// `sk2 listen`: the app starts iterating `Transaction.updates`; every update is logged (`sk2-update`).
        case listen
        /// `sk2 buy PRODUCT [quantity N] [ask-to-buy] [win-back ID] [offer ID jws FILE] [intro-eligibility jws FILE]
        /// [plan monthly|up-front] [as HANDLE]`: `Product.purchase(options:)`.
        case buy(product: String, quantity: Int, askToBuy: Bool, offers: StoreKit2Offers, handle: String?)
        /// `sk2 finish REF`: `Transaction.finish()`.
        case finish(Reference)
    }

    /// An `expect sk2 ...` expectation.
    public enum StoreKit2Expectation: Sendable, Hashable {
        /// `expect sk2 result REF success|cancelled|pending|failed`: how the purchase ended.
        case result(Reference, String)
        /// `expect sk2 updates [P1 P2 ...]`: the products of the updates the listener heard, in order (none if empty).
        case updates([String])
        /// `expect sk2 entitlements [P1 P2 ...]`: the products of `Transaction.currentEntitlements`, in order.
        case entitlements([String])
        /// `expect sk2 status GROUP subscribed|expired|billing-retry|grace-period|revoked|none`.
        case status(String, String)
        /// `expect sk2 verified REF` / `expect sk2 unverified REF`: the verification outcome of the transaction.
        case verified(Reference, Bool)
        /// `expect sk2 unfinished N`: `Transaction.unfinished` holds N transactions.
        case unfinished(Int)
        /// `expect sk2 offer REF introductory|promotional|code|win-back|none [ID]`: the transaction's `offer`, its
        /// type and, when given, its identifier.
        case offer(Reference, type: String, id: String?)
        /// `expect sk2 billing-plan REF monthly|up-front|none [period N]`: the transaction's `billingPlanType` and,
        /// when given, the number of its billing period in its commitment (`commitmentInfo.billingPeriodNumber`).
        case billingPlan(Reference, plan: BillingPlan.Kind?, period: Int?)
    }

    /// The offers and the billing plan an `sk2 buy` applies, beyond its quantity and ask-to-buy.
    public struct StoreKit2Offers: Sendable, Hashable {
        /// `win-back ID`: `Product.PurchaseOption.winBackOffer(_:)` with the product's win-back offer of that
        /// identifier.
        public var winBack: String?
        /// `offer ID jws FILE`: the promotional offer `Product.PurchaseOption.promotionalOffer(_:compactJWS:)` applies.
        public var promotional: String?
        /// The file holding the promotional offer's compact JWS (relative to the feed).
        public var promotionalJWSFile: String?
        /// `intro-eligibility jws FILE`: the file holding the compact JWS of
        /// `Product.PurchaseOption.introductoryOfferEligibility(compactJWS:)` (relative to the feed).
        public var eligibilityJWSFile: String?
        /// `plan monthly|up-front`: `Product.PurchaseOption.billingPlanType(_:)` with that plan.
        public var billingPlan: BillingPlan.Kind?

        /// No offer.
        public init() {}

        /// The signed-offer files the purchase reads.
        public var files: [String] { [promotionalJWSFile, eligibilityJWSFile].compactMap(\.self) }

        /// The offer types `expect sk2 offer` names, as the feed spells them.
        public static let types = ["introductory", "promotional", "code", "win-back", "none"]

        /// The billing plans `sk2 buy ... plan` and `expect sk2 billing-plan` name, as the feed spells them.
        public static let billingPlans: [String: BillingPlan.Kind] = ["monthly": .monthly, "up-front": .upFront]

        /// How the feed spells a billing plan.
        public static func name(of plan: BillingPlan.Kind?) -> String {
            switch plan {
            case .monthly: "monthly"
            case .upFront: "up-front"
            case nil: "none"
            }
        }
    }
}
