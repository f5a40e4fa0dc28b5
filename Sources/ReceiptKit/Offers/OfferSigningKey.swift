/// A subscription-offer key's private half (P-256), as a developer's server holds it: it signs promotional offers.
/// Immutable; safe to share between threads.
public final class OfferSigningKey: Sendable {
    private let key: PrivateKey

    /// Decodes an unencrypted PEM private key (PKCS#8 `BEGIN PRIVATE KEY`, as App Store Connect's `.p8` files, or
    /// `BEGIN EC PRIVATE KEY`) on the P-256 curve.
    ///
    /// - Throws: `privateKeyUnreadable` if the text is not such a key.
    public init(pemEncoded pem: String) throws(ReceiptError) {
        let key = try PrivateKey(pemEncoded: pem)
        guard key.isEC256 else {
            throw ReceiptError(.privateKeyUnreadable, "the private key is not an ECDSA P-256 key")
        }
        self.key = key
    }

    /// The DER ECDSA signature (SHA-256) of `message`.
    public func signature(of message: [UInt8]) throws(ReceiptError) -> [UInt8] {
        try ES256.sign(message, with: key)
    }
}
