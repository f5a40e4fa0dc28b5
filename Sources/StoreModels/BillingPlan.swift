public import Foundation

/// How a customer may pay for an auto-renewable subscription: the whole period up front, or monthly with a commitment
/// to the whole period (App Store Connect's billing plans; a `.storekit` file's `billingPlans`).
///
/// A monthly plan is offered only by a subscription whose period is one year: the customer pays the plan's price each
/// month and commits to twelve months (docs/decisions.md 109).
public struct BillingPlan: Sendable, Hashable, Codable {
    /// The kind of plan, by the names the App Store signs (`billingPlanType`).
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// The whole subscription period is billed at its start.
        case upFront = "BILLED_UPFRONT"
        /// Billed every month, with a commitment to the subscription's period.
        case monthly = "MONTHLY"
    }

    /// Up front or monthly.
    public let kind: Kind
    /// The price charged at each billing event (each month for a monthly plan), in currency units.
    public let price: Decimal
    /// The price of the whole commitment (twelve months of a monthly plan; the period's price up front).
    public let commitmentPrice: Decimal

    /// The number of billing periods a monthly plan commits to.
    public static let monthlyCommitmentPeriods = 12

    /// Creates a billing plan.
    public init(kind: Kind, price: Decimal, commitmentPrice: Decimal? = nil) {
        self.kind = kind
        self.price = price
        self.commitmentPrice =
            commitmentPrice ?? (kind == .monthly ? price * Decimal(Self.monthlyCommitmentPeriods) : price)
    }

    /// How long one billing period lasts, for a subscription of period `subscriptionPeriod`.
    public func billingPeriod(of subscriptionPeriod: SubscriptionPeriod) -> SubscriptionPeriod {
        kind == .monthly ? SubscriptionPeriod(value: 1, unit: .month) : subscriptionPeriod
    }

    /// How many billing periods the commitment has: 12 for a monthly plan, 1 up front.
    public var totalBillingPeriods: Int { kind == .monthly ? Self.monthlyCommitmentPeriods : 1 }
}
