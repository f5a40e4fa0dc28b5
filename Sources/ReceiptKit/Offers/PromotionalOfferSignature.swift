import Foundation

/// What a promotional offer's signature signs, as Apple's "Generating a signature for promotional offers" describes
/// it: the UTF-8 bytes of `appBundleID`, `keyIdentifier`, `productIdentifier`, `offerIdentifier`, the app account token
/// (StoreKit 1's application username; empty when there is none), the nonce and the timestamp (milliseconds since
/// 1970), joined by U+2063 INVISIBLE SEPARATOR. The signature is ECDSA P-256 with SHA-256, DER-encoded (base64 in
/// `SKPaymentDiscount.signature`).
public enum PromotionalOfferSignature {
    /// The separator between the parts.
    public static let separator = "\u{2063}"

    /// The bytes a promotional offer's signature signs. The nonce and the app account token are lowercased, as Apple
    /// requires.
    public static func message(
        appBundleID: String,
        keyID: String,
        productID: String,
        offerID: String,
        appAccountToken: String?,
        nonce: String,
        timestamp: Int64
    ) -> [UInt8] {
        let parts = [
            appBundleID, keyID, productID, offerID, (appAccountToken ?? "").lowercased(), nonce.lowercased(),
            String(timestamp),
        ]
        return Array(parts.joined(separator: separator).utf8)
    }
}
