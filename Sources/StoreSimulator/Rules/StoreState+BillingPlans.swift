import Foundation
import StoreModels

/// Billing plans (docs/decisions.md 109): which plan a payment buys, and how a period billed monthly stands in its
/// commitment. One rule for purchases, renewals and the signed values.
extension StoreState {
    /// The plan a payment asks for, or the failure that refuses it: a plan named by a payment must be one the product
    /// offers (an enabled plan of the configuration, or the up-front plan of a subscription that names none). A
    /// monthly plan applies no offer: a payment that names one with a monthly plan is refused too.
    static func validateBillingPlan(_ request: PaymentRequest, for product: ProductDefinition)
        -> Result<BillingPlan?, StoreFailure>
    {
        guard let kind = request.billingPlan else { return .success(nil) }
        guard product.type == .autoRenewableSubscription, let info = product.subscription else {
            return .failure(
                StoreFailure(
                    .paymentInvalid, "\(product.id) is not an auto-renewable subscription; it has no billing plans"))
        }
        guard let plan = info.plan(kind, price: product.price) else {
            let offered = info.plans(price: product.price).map(\.kind.rawValue).joined(separator: ", ")
            return .failure(
                StoreFailure(
                    .paymentInvalid, "\(product.id) offers no \(kind.rawValue) billing plan (it offers \(offered))"))
        }
        if kind == .monthly,
            request.discount != nil || request.winBackOfferID != nil || request.signedPromotionalOffer != nil
        {
            return .failure(
                StoreFailure(.invalidOfferIdentifier, "a subscription billed monthly with a commitment takes no offer"))
        }
        return .success(plan)
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
