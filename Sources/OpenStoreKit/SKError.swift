public import Foundation
import StoreModels

// swift-format-ignore: AlwaysUseLowerCamelCase
/// The error domain of StoreKit errors: `"SKErrorDomain"`.
public let SKErrorDomain = "SKErrorDomain"

/// A StoreKit error: a failed transaction's `error`, a failed request's or restore's error.
///
/// As on Apple platforms, match codes with `(error as? SKError)?.code == .paymentCancelled`, with
/// `catch SKError.paymentCancelled`, or through `NSError` (`domain == SKErrorDomain`, `code == 2`).
public struct SKError: Error, CustomNSError, Hashable, Sendable, CustomStringConvertible {
    /// StoreKit's error codes, with Apple's raw values.
    public enum Code: Int, Sendable, Hashable, CaseIterable {
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

        /// Matches an error against a code, for `catch SKError.paymentCancelled`.
        public static func ~= (code: Code, error: any Error) -> Bool {
            (error as? SKError)?.code == code
        }
    }

    /// The error code.
    public let code: Code
    /// A description for people; not stable.
    public let message: String

    /// Creates an error with a code and, optionally, a description under `NSLocalizedDescriptionKey`.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        self.message = userInfo[NSLocalizedDescriptionKey] as? String ?? "StoreKit error \(code.rawValue) (\(code))"
    }

    init(_ failure: StoreFailure) {
        self.code = Code(rawValue: failure.code.rawValue) ?? .unknown
        self.message = failure.message
    }

    /// `"SKErrorDomain"`.
    public static var errorDomain: String { SKErrorDomain }
    /// The code's raw value.
    public var errorCode: Int { code.rawValue }
    /// The description under `NSLocalizedDescriptionKey`.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }
    /// The description, as `localizedDescription` gives it.
    public var description: String { "\(SKErrorDomain) code \(code.rawValue) (\(code)): \(message)" }

    /// Errors are equal when their codes are.
    public static func == (lhs: SKError, rhs: SKError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// ``Code-swift.enum/unknown``.
    public static var unknown: Code { .unknown }
    /// ``Code-swift.enum/clientInvalid``.
    public static var clientInvalid: Code { .clientInvalid }
    /// ``Code-swift.enum/paymentCancelled``.
    public static var paymentCancelled: Code { .paymentCancelled }
    /// ``Code-swift.enum/paymentInvalid``.
    public static var paymentInvalid: Code { .paymentInvalid }
    /// ``Code-swift.enum/paymentNotAllowed``.
    public static var paymentNotAllowed: Code { .paymentNotAllowed }
    /// ``Code-swift.enum/storeProductNotAvailable``.
    public static var storeProductNotAvailable: Code { .storeProductNotAvailable }
    /// ``Code-swift.enum/cloudServicePermissionDenied``.
    public static var cloudServicePermissionDenied: Code { .cloudServicePermissionDenied }
    /// ``Code-swift.enum/cloudServiceNetworkConnectionFailed``.
    public static var cloudServiceNetworkConnectionFailed: Code { .cloudServiceNetworkConnectionFailed }
    /// ``Code-swift.enum/cloudServiceRevoked``.
    public static var cloudServiceRevoked: Code { .cloudServiceRevoked }
    /// ``Code-swift.enum/privacyAcknowledgementRequired``.
    public static var privacyAcknowledgementRequired: Code { .privacyAcknowledgementRequired }
    /// ``Code-swift.enum/unauthorizedRequestData``.
    public static var unauthorizedRequestData: Code { .unauthorizedRequestData }
    /// ``Code-swift.enum/invalidOfferIdentifier``.
    public static var invalidOfferIdentifier: Code { .invalidOfferIdentifier }
    /// ``Code-swift.enum/invalidSignature``.
    public static var invalidSignature: Code { .invalidSignature }
    /// ``Code-swift.enum/missingOfferParams``.
    public static var missingOfferParams: Code { .missingOfferParams }
    /// ``Code-swift.enum/invalidOfferPrice``.
    public static var invalidOfferPrice: Code { .invalidOfferPrice }
    /// ``Code-swift.enum/overlayCancelled``.
    public static var overlayCancelled: Code { .overlayCancelled }
    /// ``Code-swift.enum/overlayInvalidConfiguration``.
    public static var overlayInvalidConfiguration: Code { .overlayInvalidConfiguration }
    /// ``Code-swift.enum/overlayTimeout``.
    public static var overlayTimeout: Code { .overlayTimeout }
    /// ``Code-swift.enum/ineligibleForOffer``.
    public static var ineligibleForOffer: Code { .ineligibleForOffer }
    /// ``Code-swift.enum/unsupportedPlatform``.
    public static var unsupportedPlatform: Code { .unsupportedPlatform }
    /// ``Code-swift.enum/overlayPresentedInBackgroundScene``.
    public static var overlayPresentedInBackgroundScene: Code { .overlayPresentedInBackgroundScene }
    /// ``Code-swift.enum/paymentMethodBindingConfigurationRequired``.
    public static var paymentMethodBindingConfigurationRequired: Code { .paymentMethodBindingConfigurationRequired }
}
