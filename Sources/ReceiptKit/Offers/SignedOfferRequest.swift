public import Foundation
import StoreModels

/// A signed request a developer's server makes for StoreKit ("Generating JWS to sign App Store requests"): a JWS signed
/// ES256 with an In-App Purchase key (header `kid` its key id), claims `nonce`, `iss`, `bid`, `aud`, `iat` (whole
/// seconds since 1970) and the audience's own: for a promotional offer (`aud` `promotional-offer`) `productId`,
/// `offerIdentifier` and optionally `transactionId`; for introductory offer eligibility (`aud`
/// `introductory-offer-eligibility`) `productId`, `allowIntroductoryOffer` and `transactionId`. Apple's App Store
/// Server Library makes them with `PromotionalOfferV2SignatureCreator` and
/// `IntroductoryOfferEligibilitySignatureCreator`; ``SignedOfferRequestVerifier`` checks them.
///
/// ```swift
/// let request = SignedOfferRequest(
///     audience: .promotionalOffer, keyID: "2X9R4HXF34", issuerID: issuer, bundleID: "com.example.app",
///     productID: "com.example.monthly", issuedAt: Date(), offerIdentifier: "comeback")
/// let jws = try request.signed(with: key)
/// ```
public struct SignedOfferRequest: Sendable, Hashable {
    /// What a signed request is for: its `aud`.
    public enum Audience: String, Sendable, Hashable, CaseIterable {
        /// A promotional offer (`Product.PurchaseOption.promotionalOffer(_:compactJWS:)`).
        case promotionalOffer = "promotional-offer"
        /// Introductory offer eligibility (`Product.PurchaseOption.introductoryOfferEligibility(compactJWS:)`).
        case introductoryOfferEligibility = "introductory-offer-eligibility"
    }

    /// The audience (`aud`).
    public var audience: Audience
    /// The key id (the header's `kid`).
    public var keyID: String
    /// The issuer id (`iss`).
    public var issuerID: String
    /// The app's bundle id (`bid`).
    public var bundleID: String
    /// The product the request is for (`productId`).
    public var productID: String
    /// The single-use nonce (`nonce`).
    public var nonce: String
    /// When the request was signed (`iat`, whole seconds since 1970).
    public var issuedAtSeconds: Int64
    /// The promotional offer's identifier (`offerIdentifier`); promotional offers only.
    public var offerIdentifier: String?
    /// A transaction of the customer, or their app transaction id (`transactionId`).
    public var transactionID: String?
    /// Whether the introductory offer applies (`allowIntroductoryOffer`); introductory offer eligibility only.
    public var allowIntroductoryOffer: Bool?

    /// Creates a request's contents; ``signed(with:)`` makes the JWS.
    public init(
        audience: Audience, keyID: String, issuerID: String, bundleID: String, productID: String,
        nonce: String = UUID().uuidString.lowercased(), issuedAt: Date, offerIdentifier: String? = nil,
        transactionID: String? = nil, allowIntroductoryOffer: Bool? = nil
    ) {
        self.audience = audience
        self.keyID = keyID
        self.issuerID = issuerID
        self.bundleID = bundleID
        self.productID = productID
        self.nonce = nonce
        self.issuedAtSeconds = Int64(issuedAt.timeIntervalSince1970.rounded(.down))
        self.offerIdentifier = offerIdentifier
        self.transactionID = transactionID
        self.allowIntroductoryOffer = allowIntroductoryOffer
    }

    /// When the request was signed.
    public var issuedAt: Date { Date(timeIntervalSince1970: TimeInterval(issuedAtSeconds)) }

    /// The compact JWS, `header.claims.signature`, signed with `key` (the `.p8` key whose id is ``keyID``), laid out
    /// as Apple's library lays it out.
    ///
    /// - Throws: ``ReceiptError/Code/openSSLFailure`` if OpenSSL cannot sign.
    public func signed(with key: ES256Key) throws(ReceiptError) -> String {
        let header = #"{"alg":"ES256","kid":"# + Self.string(keyID) + #","typ":"JWT"}"#
        var claims = "{"
        if let offerIdentifier { claims += #""offerIdentifier":"# + Self.string(offerIdentifier) + "," }
        if let allowIntroductoryOffer { claims += #""allowIntroductoryOffer":\#(allowIntroductoryOffer),"# }
        if let transactionID { claims += #""transactionId":"# + Self.string(transactionID) + "," }
        claims +=
            #""productId":"# + Self.string(productID) + #","bid":"# + Self.string(bundleID) + #","iss":"#
            + Self.string(issuerID) + #","aud":"# + Self.string(audience.rawValue) + #","iat":\#(issuedAtSeconds),"#
            + #""nonce":"# + Self.string(nonce) + "}"
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        let signature = try key.sign(Array(input.utf8))
        return input + "." + Base64URL.encode(signature)
    }

    private static func string(_ text: String) -> String {
        "\"" + JSONValue.escaped(text) + "\""
    }
}
