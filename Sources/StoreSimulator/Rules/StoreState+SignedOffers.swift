import Foundation
import ReceiptKit
import StoreModels

extension StoreState {
    /// Checks a JWS a developer's server signed for a purchase (``SignedOfferRequest``, docs/decisions.md 98), the one
    /// rule for promotional offers and introductory offer eligibility: the JWS is ES256 with a `kid`, and when the
    /// store's settings hold that key (`subscriptionOfferKeys`) its signature verifies with it; the audience is the
    /// one expected; the claims are present (`missingOfferParams`); `bid` is the app's, `productId` the product
    /// bought and `iat` less than a day old (`invalidSignature`); `transactionId`, when present, is one of the
    /// account's transactions or its app transaction id (`invalidSignature`); the nonce is unused (`invalidSignature`).
    mutating func verifySignedRequest(
        _ compactJWS: String, audience: SignedOfferRequest.Audience, productID: String, account: String,
        appBundleID: String, now: Date
    ) -> Result<SignedOfferRequest, StoreFailure> {
        let name = audience == .promotionalOffer ? "promotional offer" : "introductory offer eligibility"
        func refuse(_ code: StoreErrorCode, _ detail: String) -> Result<SignedOfferRequest, StoreFailure> {
            .failure(StoreFailure(code, "the \(name) JWS: \(detail)"))
        }
        let request: SignedOfferRequest
        do throws(ReceiptError) {
            let jws = try SignedOfferRequestVerifier.parse(compactJWS)
            guard jws.algorithm == "ES256", let keyID = jws.keyIdentifier else {
                return refuse(.invalidSignature, "the header must have alg ES256 and a kid")
            }
            var keys: [String: OfferVerificationKey] = [:]
            if let pem = settings.subscriptionOfferKeys[keyID] {
                do throws(ReceiptError) {
                    keys[keyID] = try OfferVerificationKey(pemEncoded: pem)
                } catch {
                    return refuse(
                        .invalidSignature,
                        "the store's subscription-offer key \"\(keyID)\" is not a P-256 public key in PEM (BEGIN "
                            + "PUBLIC KEY): \(error.detail); fix subscriptionOfferKeys in the store's settings")
                }
                _ = try jws.keyID(verifiedWith: keys)
            }
            request = try SignedOfferRequestVerifier(keys: keys, bundleID: appBundleID)
                .claims(of: jws, audience: audience, now: now)
        } catch {
            return refuse(error.code == .missingClaim ? .missingOfferParams : .invalidSignature, error.detail)
        }
        guard request.productID == productID else {
            return refuse(.invalidSignature, "productId is \(request.productID), not the product bought, \(productID)")
        }
        if let transactionID = request.transactionID {
            let isCustomers =
                UInt64(transactionID).flatMap { records[$0] }?.account == account
                || transactionID == SignedPayloadMapping.appTransactionID(account: account)
            guard isCustomers else {
                return refuse(
                    .invalidSignature,
                    "transactionId \(transactionID) is neither a transaction of the customer nor their app "
                        + "transaction id")
            }
        }
        guard usedNonces.insert(request.nonce.lowercased()).inserted else {
            return refuse(.invalidSignature, "its nonce was already used")
        }
        return .success(request)
    }

    /// Checks a promotional offer applied with a signed JWS: the product has the offer (`invalidOfferIdentifier`), the
    /// JWS is good (``verifySignedRequest(_:audience:productID:account:appBundleID:now:)``) and names the offer
    /// (`invalidOfferIdentifier`), and the account has subscribed in the group before (`ineligibleForOffer`), as for
    /// a legacy signature.
    mutating func validate(
        _ signed: SignedPromotionalOffer, for product: ProductDefinition, account: String, appBundleID: String,
        now: Date
    ) -> Result<ProductOffer, StoreFailure> {
        guard let subscription = product.subscription,
            let offer = subscription.promotionalOffer(identifier: signed.offerID)
        else {
            return .failure(
                StoreFailure(.invalidOfferIdentifier, "\(product.id) has no promotional offer \"\(signed.offerID)\""))
        }
        let request: SignedOfferRequest
        switch verifySignedRequest(
            signed.compactJWS, audience: .promotionalOffer, productID: product.id, account: account,
            appBundleID: appBundleID, now: now)
        {
        case .success(let verified): request = verified
        case .failure(let failure): return .failure(failure)
        }
        guard request.offerIdentifier == signed.offerID else {
            return .failure(
                StoreFailure(
                    .invalidOfferIdentifier,
                    "the promotional offer JWS is for offer \"\(request.offerIdentifier ?? "")\", not \""
                        + "\(signed.offerID)\""))
        }
        let hasSubscribed = hasRecord(of: account, inGroup: subscription.groupID) { $0.state == .purchased }
        guard hasSubscribed else {
            return .failure(
                StoreFailure(.ineligibleForOffer, "promotional offers are for customers who have subscribed before"))
        }
        return .success(offer)
    }
}
