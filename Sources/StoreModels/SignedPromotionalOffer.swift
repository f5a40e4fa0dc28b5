/// A promotional offer applied with a JWS the developer's server signed (StoreKit 2's
/// `promotionalOffer(_:compactJWS:)`).
public struct SignedPromotionalOffer: Sendable, Hashable, Codable {
    /// The offer's identifier.
    public let offerID: String
    /// The signed request, a compact JWS with audience `promotional-offer`.
    public let compactJWS: String

    /// Creates a signed promotional offer.
    public init(offerID: String, compactJWS: String) {
        self.offerID = offerID
        self.compactJWS = compactJWS
    }
}
