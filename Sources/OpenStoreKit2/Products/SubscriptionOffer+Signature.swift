public import Foundation

extension Product.SubscriptionOffer {
    /// A promotional offer's signature, as the developer's server made it (iOS 17.4, deprecated in iOS 26 for offers
    /// signed as JWS): the parameters of ``Product/PurchaseOption/promotionalOffer(offerID:signature:)``, checked by
    /// the store as those of ``Product/PurchaseOption/promotionalOffer(offerID:keyID:nonce:signature:timestamp:)``.
    public struct Signature: Hashable, Sendable {
        /// The identifier of the subscription key that signed the offer.
        public var keyID: String
        /// The single-use nonce that was signed.
        public var nonce: UUID
        /// When the server signed the offer, in milliseconds since 1970.
        public var timestamp: Int
        /// The signature.
        public var signature: Data

        /// Creates a subscription offer signature.
        ///
        /// - Parameters:
        ///   - keyID: The identifier of the subscription key that signed the offer.
        ///   - nonce: The single-use nonce that was signed.
        ///   - timestamp: When the server signed the offer, in milliseconds since 1970.
        ///   - signature: The signature.
        public init(keyID: String, nonce: UUID, timestamp: Int, signature: Data) {
            self.keyID = keyID
            self.nonce = nonce
            self.timestamp = timestamp
            self.signature = signature
        }
    }
}

extension Product.PurchaseOption {
    /// Applies a promotional offer with the signature the developer's server made (iOS 17.4); the store checks it as
    /// it checks ``promotionalOffer(offerID:keyID:nonce:signature:timestamp:)``.
    ///
    /// - Parameters:
    ///   - offerID: The offer's identifier in the product's configuration.
    ///   - signature: The signature and the parameters signed.
    public static func promotionalOffer(offerID: String, signature: Product.SubscriptionOffer.Signature)
        -> Product.PurchaseOption
    {
        .promotionalOffer(
            offerID: offerID, keyID: signature.keyID, nonce: signature.nonce, signature: signature.signature,
            timestamp: signature.timestamp)
    }
}
