import Foundation
public import StoreModels

/// The knobs of a simulated store that a test session turns: Ask to Buy, failures, billing issues, storefront, locale,
/// time rate.
public struct StoreSettings: Sendable, Hashable, Codable {
    /// Every purchase needs a parent's approval.
    public var askToBuyEnabled = false
    /// No purchase confirmation dialogs (always true in a headless store; kept for configuration fidelity).
    public var disableDialogs = false
    /// Every purchase is interrupted and fails until the issue is resolved.
    public var interruptedPurchasesEnabled = false
    /// Renewals hit a billing problem and enter billing retry.
    public var billingRetryOnRenewal = false
    /// Billing retry starts with a grace period in which the customer keeps access.
    public var billingGracePeriodEnabled = false
    /// The storefront purchases happen in.
    public var storefront = Storefront.unitedStates
    /// The locale used to pick products' titles and descriptions.
    public var locale = "en_US"
    /// The raw value of the session time rate (0 is real time).
    public var timeRate = 0
    /// Every payment-queue transaction fails with ``failureError``.
    public var failTransactionsEnabled = false
    /// The error failing transactions carry.
    public var failureError = StoreErrorCode.unknown
    /// Whether this device may make payments (`canMakePayments`).
    public var paymentsAllowed = true
    /// Failures to simulate, by operation.
    public var simulatedErrors: [StoreAPI: StoreFailure] = [:]
    /// What the customer does when a price-consent sheet is shown: closes it without answering by default.
    public var priceConsentAnswer = PriceConsentAnswer.dismiss
    /// The developer's subscription-offer keys, public halves as PEM (`BEGIN PUBLIC KEY`, P-256), by key identifier.
    /// A promotional offer whose key identifier is here must carry an ECDSA signature that verifies with it, over the
    /// parameters Apple's "Generating a signature for promotional offers" lists, or the purchase fails with
    /// `invalidSignature`; one whose key identifier is not here gets only the format, age and nonce checks.
    public var subscriptionOfferKeys: [String: String] = [:]

    /// The default settings: everything off, United States, `en_US`, real time.
    public init() {}

    /// Reads settings; those a state file of an earlier release does not hold (``priceConsentAnswer``,
    /// ``subscriptionOfferKeys``) take their defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        askToBuyEnabled = try container.decode(Bool.self, forKey: .askToBuyEnabled)
        disableDialogs = try container.decode(Bool.self, forKey: .disableDialogs)
        interruptedPurchasesEnabled = try container.decode(Bool.self, forKey: .interruptedPurchasesEnabled)
        billingRetryOnRenewal = try container.decode(Bool.self, forKey: .billingRetryOnRenewal)
        billingGracePeriodEnabled = try container.decode(Bool.self, forKey: .billingGracePeriodEnabled)
        storefront = try container.decode(Storefront.self, forKey: .storefront)
        locale = try container.decode(String.self, forKey: .locale)
        timeRate = try container.decode(Int.self, forKey: .timeRate)
        failTransactionsEnabled = try container.decode(Bool.self, forKey: .failTransactionsEnabled)
        failureError = try container.decode(StoreErrorCode.self, forKey: .failureError)
        paymentsAllowed = try container.decode(Bool.self, forKey: .paymentsAllowed)
        simulatedErrors = try container.decode([StoreAPI: StoreFailure].self, forKey: .simulatedErrors)
        priceConsentAnswer =
            try container.decodeIfPresent(PriceConsentAnswer.self, forKey: .priceConsentAnswer) ?? .dismiss
        subscriptionOfferKeys =
            try container.decodeIfPresent([String: String].self, forKey: .subscriptionOfferKeys) ?? [:]
    }
}
