public import Foundation

/// Where a subscription period billed monthly stands in the commitment the customer agreed to: which billing period of
/// how many it is, and when the commitment ends (the signed transaction's `commitmentInfo`).
public struct BillingCommitment: Sendable, Hashable, Codable {
    /// The period's number in the commitment, from 1 to ``totalBillingPeriods``.
    public var billingPeriodNumber: Int
    /// How many billing periods the commitment has.
    public var totalBillingPeriods: Int
    /// When the commitment ends: the end of its last billing period.
    public var expirationDate: Date

    /// Creates the place of a period in its commitment.
    public init(billingPeriodNumber: Int, totalBillingPeriods: Int, expirationDate: Date) {
        self.billingPeriodNumber = billingPeriodNumber
        self.totalBillingPeriods = totalBillingPeriods
        self.expirationDate = expirationDate
    }
}
