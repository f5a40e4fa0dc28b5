/// What ``ReceiptVerifier/verify(_:options:)`` checks beyond the signature and the chain.
public struct ReceiptVerificationOptions: Sendable, Hashable {
    /// When the chain must be valid; ``ReceiptVerificationTime/creationDate`` by default.
    public var time: ReceiptVerificationTime
    /// The bundle identifier the receipt must carry, or nil not to check it.
    public var bundleIdentifier: String?
    /// The application version the receipt must carry, or nil not to check it.
    public var applicationVersion: String?
    /// The device the receipt's SHA-1 hash must be bound to, or nil not to check it.
    public var deviceIdentifier: DeviceIdentifier?
    /// Whether to accept receipts signed by a self-signed certificate that is itself a trusted root, as Xcode's
    /// StoreKit testing makes them. Such receipts carry no Apple marker extensions and are checked with purpose
    /// "any"; the signature and the trust in the certificate are still checked. False by default.
    public var allowsXcodeReceipts: Bool

    /// Creates options.
    ///
    /// - Parameters:
    ///   - time: When the chain must be valid.
    ///   - bundleIdentifier: The expected bundle identifier, or nil.
    ///   - applicationVersion: The expected application version, or nil.
    ///   - deviceIdentifier: The device the hash must match, or nil.
    ///   - allowsXcodeReceipts: Whether to accept Xcode-style self-signed receipts.
    public init(
        time: ReceiptVerificationTime = .creationDate,
        bundleIdentifier: String? = nil,
        applicationVersion: String? = nil,
        deviceIdentifier: DeviceIdentifier? = nil,
        allowsXcodeReceipts: Bool = false
    ) {
        self.time = time
        self.bundleIdentifier = bundleIdentifier
        self.applicationVersion = applicationVersion
        self.deviceIdentifier = deviceIdentifier
        self.allowsXcodeReceipts = allowsXcodeReceipts
    }
}
