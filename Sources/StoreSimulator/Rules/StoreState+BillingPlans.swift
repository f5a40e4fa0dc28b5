import Foundation
import StoreModels

/// Billing plans (docs/decisions.md 109): which plan a payment buys, and how a period billed monthly stands in its
/// commitment. One rule for purchases, renewals and the signed values.
extension StoreState {
    /// Why a billing plan cannot be bought: the one rule of purchases in the app and of StoreKit Test's purchases.
    enum BillingPlanRefusal: Error, Equatable {
        /// The product is not an auto-renewable subscription.
        case notASubscription
        /// The subscription offers no plan of the kind; the kinds it offers, joined by commas.
        case notOffered(offered: String)
        /// A monthly plan with an offer.
        case monthlyWithOffer

        /// What went wrong, for `product` and a plan of kind `kind`.
        func message(product: ProductDefinition, kind: BillingPlan.Kind) -> String {
            switch self {
            case .notASubscription:
                "\(product.id) is not an auto-renewable subscription; it has no billing plans"
            case .notOffered(let offered):
                "\(product.id) offers no \(kind.rawValue) billing plan (it offers \(offered))"
            case .monthlyWithOffer:
                "a subscription billed monthly with a commitment takes no offer"
            }
        }
    }

    /// The plan of kind `kind` a purchase of `product` buys, or why it cannot: it must be one the product offers (an
    /// enabled plan of the configuration, or the up-front plan of a subscription that names none), and a monthly plan
    /// applies no offer.
    static func billingPlan(_ kind: BillingPlan.Kind, of product: ProductDefinition, withOffer: Bool)
        -> Result<BillingPlan, BillingPlanRefusal>
    {
        guard product.type == .autoRenewableSubscription, let info = product.subscription else {
            return .failure(.notASubscription)
        }
        guard let plan = info.plan(kind, price: product.price) else {
            return .failure(
                .notOffered(offered: info.plans(price: product.price).map(\.kind.rawValue).joined(separator: ", ")))
        }
        if kind == .monthly, withOffer { return .failure(.monthlyWithOffer) }
        return .success(plan)
    }

    /// The plan a payment asks for, or the failure that refuses it (``billingPlan(_:of:withOffer:)``):
    /// `invalidOfferIdentifier` for a monthly plan with an offer, else `paymentInvalid`.
    static func validateBillingPlan(_ request: PaymentRequest, for product: ProductDefinition)
        -> Result<BillingPlan?, StoreFailure>
    {
        guard let kind = request.billingPlan else { return .success(nil) }
        let withOffer =
            request.discount != nil || request.winBackOfferID != nil || request.signedPromotionalOffer != nil
        switch billingPlan(kind, of: product, withOffer: withOffer) {
        case .success(let plan):
            return .success(plan)
        case .failure(let refusal):
            let code: StoreErrorCode = refusal == .monthlyWithOffer ? .invalidOfferIdentifier : .paymentInvalid
            return .failure(StoreFailure(code, refusal.message(product: product, kind: kind)))
        }
    }

    /// The plan a subscription's purchase records: the plan asked for, else the up-front plan (the first plan listed
    /// when the configuration has no up-front one); `nil` for a subscription whose configuration names none.
    static func recordedPlan(_ asked: BillingPlan?, of info: SubscriptionInfo) -> BillingPlan.Kind? {
        if let asked { return asked.kind }
        if info.billingPlans.contains(where: { $0.kind == .upFront }) { return .upFront }
        return info.billingPlans.first?.kind
    }

    /// The place in its commitment of a period billed monthly that starts a commitment at `start` (the anchor of its
    /// billing periods, `periodsBefore` periods before this one).
    static func newCommitment(anchor start: Date, periodsBefore: Int) -> BillingCommitment {
        let total = BillingPlan.monthlyCommitmentPeriods
        let month = SubscriptionPeriod(value: 1, unit: .month)
        return BillingCommitment(
            billingPeriodNumber: 1, totalBillingPeriods: total,
            expirationDate: month.advance(start, by: periodsBefore > Int.max - total ? Int.max : periodsBefore + total))
    }

    /// The commitment of the period after `latest` when it renews monthly: the next billing period of the same
    /// commitment, or the first of a new one when `latest` was the last (or had none).
    static func nextCommitment(after latest: TransactionRecord, anchor: Date, periodsBefore: Int) -> BillingCommitment {
        if var commitment = latest.commitment, commitment.billingPeriodNumber < commitment.totalBillingPeriods {
            commitment.billingPeriodNumber += 1
            return commitment
        }
        return newCommitment(anchor: anchor, periodsBefore: periodsBefore)
    }
}
