public import Foundation

/// A value StoreKit 2 decodes from a JWS the App Store signed: `Transaction`, `Product.SubscriptionInfo.RenewalInfo`
/// and `AppTransaction`. It gives ``VerificationResult`` its JWS properties (`jwsRepresentation`, `payloadData`, ...).
public protocol SignedPayload: Sendable {
    /// The JWS the value was decoded from.
    var signed: SignedJWS { get }
    /// When the App Store signed the value.
    var signedDate: Date { get }
    /// The device verification value.
    var deviceVerification: Data { get }
    /// The nonce of the device verification value.
    var deviceVerificationNonce: UUID { get }
}
