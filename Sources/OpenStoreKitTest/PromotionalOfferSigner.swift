public import Foundation
public import OpenStoreKit
public import OpenStoreKit2
public import ReceiptKit

/// Signs promotional offers as a developer's server does, so that a test or a harness can buy them end to end from a
/// store configured with the key's public half (`StoreSettings.subscriptionOfferKeys`).
///
/// ```swift
/// let signer = PromotionalOfferSigner.test(appBundleID: store.app.bundleIdentifier)
/// store.updateSettings { $0.subscriptionOfferKeys[signer.keyID] = PromotionalOfferSigner.testPublicKeyPEM }
/// let option = try signer.purchaseOption(productID: "com.example.premium.monthly", offerID: "winback", timestamp: now)
/// ```
public struct PromotionalOfferSigner: Sendable {
    /// The identifier of the key, as App Store Connect shows it.
    public let keyID: String
    /// The bundle identifier of the app the offers are for.
    public let appBundleID: String
    private let key: OfferSigningKey
    /// The same key, for JWS (``signedRequest(_:productID:issuedAt:nonce:offerID:transactionID:allowIntroductoryOffer:)``).
    let jwsKey: ES256Key

    /// A signer with a private key.
    ///
    /// - Parameters:
    ///   - keyID: The key's identifier.
    ///   - privateKeyPEM: The key, unencrypted PEM (PKCS#8, as App Store Connect's `.p8` file), on the P-256 curve.
    ///   - appBundleID: The app's bundle identifier.
    /// - Throws: ReceiptKit's `privateKeyUnreadable` if the key is not such a key.
    public init(keyID: String, privateKeyPEM: String, appBundleID: String) throws(ReceiptError) {
        self.keyID = keyID
        self.appBundleID = appBundleID
        self.key = try OfferSigningKey(pemEncoded: privateKeyPEM)
        self.jwsKey = try ES256Key(pemEncoded: privateKeyPEM)
    }

    /// A signer with the project's test key (``testKeyID``; its public half is ``testPublicKeyPEM``).
    public static func test(appBundleID: String = "com.example.app") -> PromotionalOfferSigner {
        do {
            return try PromotionalOfferSigner(
                keyID: testKeyID, privateKeyPEM: testPrivateKeyPEM, appBundleID: appBundleID)
        } catch {
            // The embedded key is made by Receipts/make-offer-key.sh and read by the tests: it always decodes.
            preconditionFailure("the embedded test offer key does not decode: \(error)")
        }
    }

    /// The DER ECDSA signature of an offer's parameters.
    ///
    /// - Parameters:
    ///   - productID: The subscription product.
    ///   - offerID: The promotional offer's identifier.
    ///   - appAccountToken: The app account token (StoreKit 1's application username), or `nil` for none.
    ///   - nonce: The single-use nonce.
    ///   - timestamp: When the signature is made, in milliseconds since 1970 (the store accepts it for a day).
    public func signature(
        productID: String, offerID: String, appAccountToken: String? = nil, nonce: UUID, timestamp: Int
    ) throws(ReceiptError) -> Data {
        let message = PromotionalOfferSignature.message(
            appBundleID: appBundleID, keyID: keyID, productID: productID, offerID: offerID,
            appAccountToken: appAccountToken, nonce: nonce.uuidString, timestamp: Int64(timestamp))
        return Data(try key.signature(of: message))
    }

    /// StoreKit 2's purchase option for an offer, signed now (`timestamp`, milliseconds since 1970) with a new nonce.
    public func purchaseOption(
        productID: String, offerID: String, appAccountToken: UUID? = nil, nonce: UUID = UUID(), timestamp: Int
    ) throws(ReceiptError) -> Product.PurchaseOption {
        let signature = try signature(
            productID: productID, offerID: offerID, appAccountToken: appAccountToken?.uuidString, nonce: nonce,
            timestamp: timestamp)
        return .promotionalOffer(
            offerID: offerID, keyID: keyID, nonce: nonce, signature: signature, timestamp: timestamp)
    }

    /// StoreKit 1's payment discount for an offer, signed now (`timestamp`, milliseconds since 1970) with a new nonce;
    /// set the payment's `applicationUsername` to the same `applicationUsername`.
    public func paymentDiscount(
        productID: String, offerID: String, applicationUsername: String? = nil, nonce: UUID = UUID(), timestamp: Int
    ) throws(ReceiptError) -> SKPaymentDiscount {
        let signature = try signature(
            productID: productID, offerID: offerID, appAccountToken: applicationUsername, nonce: nonce,
            timestamp: timestamp)
        return SKPaymentDiscount(
            identifier: offerID, keyIdentifier: keyID, nonce: nonce, signature: signature.base64EncodedString(),
            timestamp: NSNumber(value: timestamp))
    }
}
