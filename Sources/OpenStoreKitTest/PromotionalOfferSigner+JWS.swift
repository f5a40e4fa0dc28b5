public import Foundation
public import OpenStoreKit2
public import ReceiptKit

extension PromotionalOfferSigner {
    /// The issuer id the signer's JWS name (`iss`); the store does not check it.
    public static let testIssuerID = "57246542-96fe-1a63-e053-0824d011072a"

    /// A signed request as Apple's App Store Server Library signs it (`PromotionalOfferV2SignatureCreator`,
    /// `IntroductoryOfferEligibilitySignatureCreator`), with this signer's key and key id.
    ///
    /// - Parameters:
    ///   - audience: What the JWS is for.
    ///   - productID: The product (`productId`).
    ///   - issuedAt: When it is signed (`iat`).
    ///   - nonce: The single-use nonce.
    ///   - offerID: The promotional offer (`offerIdentifier`).
    ///   - transactionID: A transaction of the customer, or their app transaction id (`transactionId`).
    ///   - allowIntroductoryOffer: Whether the introductory offer applies (`allowIntroductoryOffer`).
    public func signedRequest(
        _ audience: SignedOfferRequest.Audience, productID: String, issuedAt: Date, nonce: UUID = UUID(),
        offerID: String? = nil, transactionID: String? = nil, allowIntroductoryOffer: Bool? = nil
    ) throws(ReceiptError) -> String {
        try SignedOfferRequest(
            audience: audience, keyID: keyID, issuerID: Self.testIssuerID, bundleID: appBundleID,
            productID: productID, nonce: nonce.uuidString.lowercased(), issuedAt: issuedAt, offerIdentifier: offerID,
            transactionID: transactionID, allowIntroductoryOffer: allowIntroductoryOffer
        ).signed(with: jwsKey)
    }

    /// A promotional offer signed as a JWS (audience `promotional-offer`), as a server hands it to its app for
    /// `Product.PurchaseOption.promotionalOffer(_:compactJWS:)`.
    public func promotionalOfferJWS(
        productID: String, offerID: String, transactionID: String? = nil, issuedAt: Date
    ) throws(ReceiptError) -> String {
        try signedRequest(
            .promotionalOffer, productID: productID, issuedAt: issuedAt, offerID: offerID, transactionID: transactionID)
    }

    /// Introductory offer eligibility signed as a JWS (audience `introductory-offer-eligibility`), as a server hands
    /// it to its app for `Product.PurchaseOption.introductoryOfferEligibility(compactJWS:)`.
    public func introductoryOfferEligibilityJWS(
        productID: String, allowIntroductoryOffer: Bool, transactionID: String, issuedAt: Date
    ) throws(ReceiptError) -> String {
        try signedRequest(
            .introductoryOfferEligibility, productID: productID, issuedAt: issuedAt, transactionID: transactionID,
            allowIntroductoryOffer: allowIntroductoryOffer)
    }

    /// StoreKit 2's purchase options for a promotional offer signed as a JWS now (`issuedAt`) with a new nonce.
    public func purchaseOptions(
        productID: String, offerID: String, transactionID: String? = nil, issuedAt: Date
    ) throws(ReceiptError) -> [Product.PurchaseOption] {
        Product.PurchaseOption.promotionalOffer(
            offerID,
            compactJWS: try signedRequest(
                .promotionalOffer, productID: productID, issuedAt: issuedAt, offerID: offerID,
                transactionID: transactionID))
    }

    /// StoreKit 2's purchase option for introductory offer eligibility signed as a JWS now (`issuedAt`).
    public func introductoryOfferEligibility(
        productID: String, allowIntroductoryOffer: Bool, transactionID: String, issuedAt: Date
    ) throws(ReceiptError) -> Product.PurchaseOption {
        .introductoryOfferEligibility(
            compactJWS: try signedRequest(
                .introductoryOfferEligibility, productID: productID, issuedAt: issuedAt, transactionID: transactionID,
                allowIntroductoryOffer: allowIntroductoryOffer))
    }
}
