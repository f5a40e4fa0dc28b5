/// The reasons a store operation fails, with the raw values of StoreKit's `SKError.Code`.
///
/// The numbers are stable: they are StoreKit's own and are never reused.
public enum StoreErrorCode: Int, Sendable, Hashable, Codable, CaseIterable {
    /// An unknown or unexpected error.
    case unknown = 0
    /// The client is not allowed to perform the action.
    case clientInvalid = 1
    /// The user cancelled the payment.
    case paymentCancelled = 2
    /// A payment parameter was not recognized, such as an unknown product identifier.
    case paymentInvalid = 3
    /// The user or device is not allowed to authorize payments.
    case paymentNotAllowed = 4
    /// The product is not available in the current storefront.
    case storeProductNotAvailable = 5
    /// The user has not allowed access to cloud service information.
    case cloudServicePermissionDenied = 6
    /// The device could not connect to the network.
    case cloudServiceNetworkConnectionFailed = 7
    /// The user revoked permission to use the cloud service.
    case cloudServiceRevoked = 8
    /// The user has not yet acknowledged Apple's privacy policy.
    case privacyAcknowledgementRequired = 9
    /// The app uses request data without the entitlement for it.
    case unauthorizedRequestData = 10
    /// The offer identifier is not valid.
    case invalidOfferIdentifier = 11
    /// The payment discount's signature is not valid.
    case invalidSignature = 12
    /// Parameters of the payment discount are missing.
    case missingOfferParams = 13
    /// The offer's price is no longer valid.
    case invalidOfferPrice = 14
    /// An overlay was cancelled.
    case overlayCancelled = 15
    /// An overlay's configuration is not valid.
    case overlayInvalidConfiguration = 16
    /// An overlay timed out.
    case overlayTimeout = 17
    /// The user is not eligible for the subscription offer.
    case ineligibleForOffer = 18
    /// The platform does not support the operation.
    case unsupportedPlatform = 19
    /// An overlay was presented in a background scene.
    case overlayPresentedInBackgroundScene = 20
    /// A payment method binding must be configured.
    case paymentMethodBindingConfigurationRequired = 21

    /// The Swift name of the code, such as `paymentCancelled`.
    public var name: String { String(describing: self) }
}
