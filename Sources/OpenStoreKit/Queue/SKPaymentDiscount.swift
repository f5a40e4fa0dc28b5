public import Foundation
import StoreModels

/// A signed promotional offer to apply to a subscription payment.
public final class SKPaymentDiscount: NSObject, NSCopying, Sendable {
    /// The offer identifier, as configured for the product.
    public let identifier: String
    /// The identifier of the key that signed the offer.
    public let keyIdentifier: String
    /// A single-use nonce.
    public let nonce: UUID
    /// The base64 signature.
    public let signature: String
    /// When the signature was made, in milliseconds since 1970.
    public let timestamp: NSNumber

    /// Creates a discount from the values your server signed.
    public init(identifier: String, keyIdentifier: String, nonce: UUID, signature: String, timestamp: NSNumber) {
        self.identifier = identifier
        self.keyIdentifier = keyIdentifier
        self.nonce = nonce
        self.signature = signature
        self.timestamp = timestamp
    }

    /// The discount itself: it is immutable.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    var request: DiscountRequest {
        DiscountRequest(
            offerID: identifier,
            keyID: keyIdentifier,
            nonce: nonce.uuidString.lowercased(),
            signature: signature,
            timestamp: timestamp.int64Value
        )
    }
}
