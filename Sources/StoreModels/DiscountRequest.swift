/// A promotional offer as a payment names it: the store's view of an `SKPaymentDiscount`.
public struct DiscountRequest: Sendable, Hashable, Codable {
    /// The offer identifier from the product's configuration.
    public let offerID: String
    /// The identifier of the key that signed the offer.
    public let keyID: String
    /// The single-use nonce, lowercased UUID text.
    public let nonce: String
    /// The base64 signature over the offer parameters.
    public let signature: String
    /// When the signature was made, in milliseconds since 1970.
    public let timestamp: Int64

    /// Creates a discount request.
    public init(offerID: String, keyID: String, nonce: String, signature: String, timestamp: Int64) {
        self.offerID = offerID
        self.keyID = keyID
        self.nonce = nonce
        self.signature = signature
        self.timestamp = timestamp
    }
}
