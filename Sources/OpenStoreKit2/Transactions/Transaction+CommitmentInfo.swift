public import Foundation
import ReceiptKit

extension Transaction {
    /// Where a subscription period billed monthly stands in the commitment the customer agreed to (iOS 26.4): the
    /// signed transaction's `commitmentInfo`.
    public struct CommitmentInfo: Equatable, Hashable, Sendable {
        /// The period's number in the commitment, from 1 (iOS 26.4).
        public let billingPeriodNumber: UInt64
        /// How many billing periods the commitment has (iOS 26.4).
        public let totalBillingPeriods: UInt64
        /// When the commitment ends (iOS 26.4).
        public let expirationDate: Date
        /// The price of the whole commitment, in units of the transaction's currency (iOS 26.4).
        public let price: Decimal

        /// The commitment a signed transaction names; `nil` when it names no billing period number.
        init?(_ payload: JWSTransactionCommitmentInfo?) {
            guard let payload, let number = payload.billingPeriodNumber else { return nil }
            billingPeriodNumber = UInt64(clamping: number)
            totalBillingPeriods = UInt64(clamping: payload.totalBillingPeriods ?? 0)
            expirationDate = payload.commitmentExpiresDate?.date ?? Date(timeIntervalSince1970: 0)
            price = payload.commitmentPrice.map(Transaction.units(fromMilliUnits:)) ?? 0
        }
    }
}
