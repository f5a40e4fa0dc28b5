public import Foundation

/// Checks a ``SignedOfferRequest`` as the App Store does before it applies the offer or eligibility it grants.
///
/// In order: at most ``maximumLength`` bytes of compact JWS; `alg` `ES256`; `kid` names one of ``keys``; the
/// signature verifies with that key (``CompactJWS/keyID(verifiedWith:)``, as App Store Server API tokens are
/// checked); the claims are a JSON object with `aud` the expected audience; `nonce`, `iss`, `bid`, `iat`,
/// `productId` and the audience's own claims (`offerIdentifier`, or `allowIntroductoryOffer` and `transactionId`)
/// present with their types; `bid` the app's; `iat` at most ``maximumAge`` before the verifier's clock and at most
/// ``allowedSkew`` after it. What only the store knows (the product bought, the offer, the customer's transactions,
/// used nonces) is the caller's to check on the returned request.
///
/// ```swift
/// let verifier = SignedOfferRequestVerifier(keys: ["2X9R4HXF34": publicKey], bundleID: "com.example.app")
/// let request = try verifier.verify(jws, audience: .promotionalOffer, now: Date())
/// ```
public struct SignedOfferRequestVerifier: Sendable {
    /// The longest signed request accepted, in bytes. Apple's are a few hundred.
    public static let maximumLength = 8192
    /// How long after `iat` a signed request is accepted: a day, as for a legacy promotional-offer signature.
    public static let maximumAge: TimeInterval = 86_400
    /// How far ahead of the verifier's clock `iat` may be: five minutes, as for a legacy promotional-offer signature.
    public static let allowedSkew: TimeInterval = 300

    /// The keys that may sign, by key id.
    public let keys: [String: OfferVerificationKey]
    /// The app's bundle id, which `bid` must be.
    public let bundleID: String

    /// Creates a verifier.
    ///
    /// - Parameters:
    ///   - keys: The public halves of the In-App Purchase keys that may sign, by key id.
    ///   - bundleID: The app's bundle id.
    public init(keys: [String: OfferVerificationKey], bundleID: String) {
        self.keys = keys
        self.bundleID = bundleID
    }

    /// Verifies a signed request.
    ///
    /// - Parameters:
    ///   - compactJWS: The JWS the app passed to StoreKit.
    ///   - audience: What the app used it for.
    ///   - now: The verifier's clock.
    /// - Returns: The request's claims.
    /// - Throws: ``ReceiptError/Code/invalidJWS`` for a JWS that is malformed or too long, for another audience or
    ///   a claim of the wrong type; ``ReceiptError/Code/unsupportedAlgorithm``, ``ReceiptError/Code/signerNotFound``
    ///   or ``ReceiptError/Code/signatureInvalid`` from the signature check; ``ReceiptError/Code/missingClaim``;
    ///   ``ReceiptError/Code/bundleIdentifierMismatch``; ``ReceiptError/Code/requestExpired``.
    public func verify(
        _ compactJWS: String, audience: SignedOfferRequest.Audience, now: Date
    ) throws(ReceiptError) -> SignedOfferRequest {
        let jws = try Self.parse(compactJWS)
        _ = try jws.keyID(verifiedWith: keys)
        return try claims(of: jws, audience: audience, now: now)
    }

    /// A signed request's form: a compact JWS of at most ``maximumLength`` bytes.
    ///
    /// - Throws: ``ReceiptError/Code/invalidJWS`` naming what is wrong.
    public static func parse(_ compactJWS: String) throws(ReceiptError) -> CompactJWS {
        guard compactJWS.utf8.count <= maximumLength else {
            throw ReceiptError(
                .invalidJWS, "the signed request is \(compactJWS.utf8.count) bytes, more than \(maximumLength)")
        }
        return try CompactJWS(compactJWS)
    }

    /// Checks a signed request's claims, not its signature: every check of ``verify(_:audience:now:)`` after the
    /// signature's. For a store that was not given the key that signed.
    ///
    /// - Throws: As ``verify(_:audience:now:)`` does, but for the signature's errors.
    public func claims(
        of jws: CompactJWS, audience: SignedOfferRequest.Audience, now: Date
    ) throws(ReceiptError) -> SignedOfferRequest {
        guard case .object(let claims) = try CompactJWS.object(jws.payloadJSON, "payload") else {
            throw ReceiptError(.invalidJWS, "the claims are not a JSON object")
        }
        func string(_ name: String, required: Bool = true) throws(ReceiptError) -> String? {
            guard let value = claims[name] else {
                if required { throw ReceiptError(.missingClaim, "the \(audience.rawValue) request has no \(name)") }
                return nil
            }
            guard let text = value.string else { throw ReceiptError(.invalidJWS, "the claim \(name) is not a string") }
            return text
        }
        let aud: String?
        if case .array(let list)? = claims["aud"] {
            aud = list.count == 1 ? list[0].string : nil
        } else {
            aud = try string("aud")
        }
        guard aud == audience.rawValue else {
            throw ReceiptError(.invalidJWS, "aud must be \(audience.rawValue)")
        }
        let nonce = try string("nonce") ?? ""
        let issuer = try string("iss") ?? ""
        let bid = try string("bid") ?? ""
        let productID = try string("productId") ?? ""
        guard let iatValue = claims["iat"] else {
            throw ReceiptError(.missingClaim, "the \(audience.rawValue) request has no iat")
        }
        guard let iat = iatValue.number, iat.isFinite, abs(iat) < 1e15 else {
            throw ReceiptError(.invalidJWS, "the claim iat is not a number of seconds since 1970")
        }
        var offerIdentifier: String?
        var allow: Bool?
        var transactionID = try string("transactionId", required: audience == .introductoryOfferEligibility)
        switch audience {
        case .promotionalOffer:
            offerIdentifier = try string("offerIdentifier")
        case .introductoryOfferEligibility:
            guard let value = claims["allowIntroductoryOffer"] else {
                throw ReceiptError(.missingClaim, "the \(audience.rawValue) request has no allowIntroductoryOffer")
            }
            guard case .bool(let flag) = value else {
                throw ReceiptError(.invalidJWS, "the claim allowIntroductoryOffer is not true or false")
            }
            allow = flag
        }
        if transactionID?.isEmpty == true { transactionID = nil }
        guard bid == bundleID else {
            throw ReceiptError(.bundleIdentifierMismatch, "bid is \(bid.debugDescription), not the app's \(bundleID)")
        }
        let age = now.timeIntervalSince1970 - iat
        guard age <= Self.maximumAge else {
            throw ReceiptError(.requestExpired, "the request was signed more than a day ago (iat \(Int64(iat)))")
        }
        guard age >= -Self.allowedSkew else {
            throw ReceiptError(
                .requestExpired, "the request's iat \(Int64(iat)) is more than five minutes ahead of the store's clock")
        }
        var request = SignedOfferRequest(
            audience: audience, keyID: jws.keyIdentifier ?? "", issuerID: issuer, bundleID: bid, productID: productID,
            nonce: nonce, issuedAt: Date(timeIntervalSince1970: iat), offerIdentifier: offerIdentifier,
            transactionID: transactionID, allowIntroductoryOffer: allow)
        request.issuedAtSeconds = Int64(iat.rounded(.down))
        return request
    }
}
