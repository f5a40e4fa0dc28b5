/// A signed transaction's `commitmentInfo` (`TransactionCommitmentInfo`, App Store Server API 1.21): where a period
/// billed monthly stands in the commitment the customer agreed to. Every field is optional, as in Apple's model.
public struct JWSTransactionCommitmentInfo: Codable, Hashable, Sendable {
    /// The period's number in the commitment, from 1 (Int32 on the wire).
    public var billingPeriodNumber: Int32?
    /// When the commitment ends.
    public var commitmentExpiresDate: JWSDate?
    /// The commitment's price in milli-units of the transaction's currency (Int64 on the wire).
    public var commitmentPrice: Int64?
    /// How many billing periods the commitment has (Int32 on the wire).
    public var totalBillingPeriods: Int32?

    /// Creates a value with every field absent.
    public init() {}
}
