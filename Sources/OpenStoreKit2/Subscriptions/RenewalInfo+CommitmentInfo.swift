public import Foundation
import ReceiptKit

extension Product.SubscriptionInfo.RenewalInfo {
    /// What happens when the commitment of a subscription billed monthly ends (iOS 26.4): the signed renewal info's
    /// `commitmentInfo`.
    public struct CommitmentInfo: Equatable, Hashable, Sendable {
        /// When the commitment ends and the subscription renews (iOS 26.4).
        public let renewalDate: Date
        /// The price of the next commitment, in units of the renewal info's currency (iOS 26.4).
        public let renewalPrice: Decimal
        /// Whether the subscription renews when the commitment ends (iOS 26.4).
        public let willAutoRenew: Bool
        /// The product the subscription renews to when the commitment ends (iOS 26.4).
        public let autoRenewPreference: String
        /// The billing plan of the renewal when the commitment ends (iOS 26.4).
        public let renewalBillingPlanType: Product.SubscriptionInfo.BillingPlanType

        /// The commitment a signed renewal info names; `nil` when it names none.
        init?(_ payload: JWSRenewalCommitmentInfo?) {
            guard let payload, let date = payload.commitmentRenewalDate?.date else { return nil }
            renewalDate = date
            renewalPrice = payload.commitmentRenewalPrice.map(Transaction.units(fromMilliUnits:)) ?? 0
            willAutoRenew = payload.commitmentAutoRenewStatus == .on
            autoRenewPreference = payload.commitmentAutoRenewProductId ?? ""
            renewalBillingPlanType =
                payload.commitmentRenewalBillingPlanType.map(Product.SubscriptionInfo.BillingPlanType.init) ?? .monthly
        }
    }
}
