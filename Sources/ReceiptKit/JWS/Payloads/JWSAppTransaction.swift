/// A signed app transaction's payload (`AppTransaction` in Apple's server libraries), with Apple's JSON keys and wire
/// types. Every field is optional; absent fields are left out when encoding. Its environment is ``receiptType``, and
/// its verification time ``receiptCreationDate``.
public struct JWSAppTransaction: Codable, Hashable, Sendable {
    /// `Sandbox`, `Production`, `Xcode` or `LocalTesting`.
    public var receiptType: JWSEnvironment?
    /// The app's App Store identifier.
    public var appAppleId: Int64?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The app version the transaction is for.
    public var applicationVersion: String?
    /// The App Store's identifier of the app version.
    public var versionExternalIdentifier: Int64?
    /// When the App Store created the app transaction (the verification time).
    public var receiptCreationDate: JWSDate?
    /// When the customer first bought the app.
    public var originalPurchaseDate: JWSDate?
    /// The app version the customer first bought.
    public var originalApplicationVersion: String?
    /// The device verification value (base64 of a SHA-384 digest).
    public var deviceVerification: String?
    /// The nonce of the device verification value, a UUID, lowercase.
    public var deviceVerificationNonce: String?
    /// When the customer pre-ordered the app.
    public var preorderDate: JWSDate?
    /// The app transaction's identifier.
    public var appTransactionId: String?
    /// The platform of the first purchase (`iOS`, `macOS`, `tvOS`, `visionOS`).
    public var originalPlatform: String?

    /// Creates a payload with every field absent; set the ones to sign.
    public init() {}
}
