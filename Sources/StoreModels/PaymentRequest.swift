/// What an app asks the store to buy: the store's view of an `SKPayment`.
public struct PaymentRequest: Sendable, Hashable, Codable {
    /// The product to buy.
    public let productID: String
    /// How many; the store accepts 1 through 10.
    public let quantity: Int
    /// An opaque identifier of the app's user account, if the app set one.
    public let applicationUsername: String?
    /// Whether the payment asks for parental approval in testing (`simulatesAskToBuyInSandbox`).
    public let simulatesAskToBuy: Bool
    /// The promotional offer to apply, if any (a signed `SKPaymentDiscount` or StoreKit 2 promotional offer).
    public let discount: DiscountRequest?
    /// The identifier of the win-back offer to apply, if any (StoreKit 2's `winBackOffer(_:)`).
    public let winBackOfferID: String?
    /// The promotional offer to apply with a signed JWS, if any (StoreKit 2's `promotionalOffer(_:compactJWS:)`).
    public let signedPromotionalOffer: SignedPromotionalOffer?
    /// A signed JWS deciding whether the introductory offer applies, if any (StoreKit 2's
    /// `introductoryOfferEligibility(compactJWS:)`).
    public let introductoryOfferEligibilityJWS: String?
    /// The billing plan the customer chose, if any (StoreKit 2's `billingPlanType(_:)`); `nil` is the subscription's
    /// first plan (up front when it offers one).
    public let billingPlan: BillingPlan.Kind?
    /// Whether the payment carries `requestData`, which only entitled apps may use.
    public let hasRequestData: Bool

    /// The valid range of quantities.
    public static let quantityRange = 1...10

    /// Creates a payment request.
    public init(
        productID: String,
        quantity: Int = 1,
        applicationUsername: String? = nil,
        simulatesAskToBuy: Bool = false,
        discount: DiscountRequest? = nil,
        hasRequestData: Bool = false,
        winBackOfferID: String? = nil,
        signedPromotionalOffer: SignedPromotionalOffer? = nil,
        introductoryOfferEligibilityJWS: String? = nil,
        billingPlan: BillingPlan.Kind? = nil
    ) {
        self.productID = productID
        self.quantity = quantity
        self.applicationUsername = applicationUsername
        self.simulatesAskToBuy = simulatesAskToBuy
        self.discount = discount
        self.hasRequestData = hasRequestData
        self.winBackOfferID = winBackOfferID
        self.signedPromotionalOffer = signedPromotionalOffer
        self.introductoryOfferEligibilityJWS = introductoryOfferEligibilityJWS
        self.billingPlan = billingPlan
    }
}
