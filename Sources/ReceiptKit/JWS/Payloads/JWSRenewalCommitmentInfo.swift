/// A signed renewal info's `commitmentInfo` (`RenewalCommitmentInfo`, App Store Server API 1.21): what happens when
/// the current commitment ends. Every field is optional, as in Apple's model.
public struct JWSRenewalCommitmentInfo: Codable, Hashable, Sendable {
    /// The product the subscription renews to when the commitment ends.
    public var commitmentAutoRenewProductId: String?
    /// 1 when the subscription renews when the commitment ends, 0 when it does not.
    public var commitmentAutoRenewStatus: JWSRenewalInfo.AutoRenewStatus?
    /// The billing plan of the renewal when the commitment ends.
    public var commitmentRenewalBillingPlanType: JWSBillingPlanType?
    /// When the commitment ends and the subscription renews.
    public var commitmentRenewalDate: JWSDate?
    /// The price of that renewal's commitment, in milli-units of the renewal info's currency (Int64 on the wire).
    public var commitmentRenewalPrice: Int64?

    /// Creates a value with every field absent.
    public init() {}
}
