/// A subscription's billing plan as signed values name it (`billingPlanType`, `renewalBillingPlanType` and
/// `commitmentRenewalBillingPlanType`): `BILLED_UPFRONT` or `MONTHLY` (App Store Server API 1.21).
public struct JWSBillingPlanType: RawRepresentable, Codable, Hashable, Sendable {
    /// The raw value.
    public let rawValue: String
    /// Creates a value from its raw value.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `BILLED_UPFRONT`: the whole period is billed at its start.
    public static let billedUpfront = JWSBillingPlanType(rawValue: "BILLED_UPFRONT")
    /// `MONTHLY`: billed every month, with a commitment.
    public static let monthly = JWSBillingPlanType(rawValue: "MONTHLY")
}
