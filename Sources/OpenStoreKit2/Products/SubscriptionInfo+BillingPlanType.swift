import ReceiptKit
package import StoreModels

extension Product.SubscriptionInfo {
    /// How a customer pays for a subscription: the whole period up front, or monthly with a twelve-month commitment
    /// (iOS 26.4). Raw values are `upFront` and `monthly`; Apple does not document them.
    public struct BillingPlanType: Equatable, Hashable, RawRepresentable, Sendable {
        /// The plan's name.
        public let rawValue: String

        /// Creates a plan type from its name.
        ///
        /// - Parameter rawValue: The name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Billed every month, with a commitment to twelve months (iOS 26.4).
        public static let monthly = BillingPlanType(rawValue: "monthly")

        /// The whole subscription period billed at its start (iOS 26.4).
        public static let upFront = BillingPlanType(rawValue: "upFront")

        /// The plan type of one of the store's billing plans.
        init(_ kind: BillingPlan.Kind) {
            self = kind == .monthly ? .monthly : .upFront
        }

        /// The plan type a signed value names (`MONTHLY`, `BILLED_UPFRONT`); another name is kept as it is.
        init(_ signed: JWSBillingPlanType) {
            switch signed {
            case .monthly: self = .monthly
            case .billedUpfront: self = .upFront
            default: self.init(rawValue: signed.rawValue)
            }
        }

        /// The store's plan of this type, if it is one of the two.
        package var kind: BillingPlan.Kind? {
            switch self {
            case .monthly: .monthly
            case .upFront: .upFront
            default: nil
            }
        }
    }

    /// The length of the period between two billing events (iOS 26.4).
    public typealias BillingPeriod = Product.SubscriptionPeriod
}
