public import Foundation

/// The contents of an App Store app receipt: the payload that the PKCS#7 signature covers.
///
/// Parse one with ``init(derEncoded:)`` (the payload alone), ``init(unverifiedReceipt:)`` (a signed receipt, without
/// checking anything), or get one from ``ReceiptVerifier/verify(_:options:)``. Encode one with ``derEncoded()``
/// and sign it with ``ReceiptSigner``. Parsing the encoding gives back an equal value, with two provisos: dates are
/// kept to the millisecond, and in-app purchases come back in DER order (sorted by their encodings, as a DER
/// `SET OF` requires and as every App Store receipt has them) rather than in the order they were added.
public struct AppReceipt: Sendable, Hashable {
    /// The receipt type (0, Apple's JSON `receipt_type`), for example `Production`, `ProductionSandbox` or `Xcode`.
    public var receiptType: String?
    /// The app's bundle identifier (2, `bundle_id`).
    public var bundleIdentifier: String
    /// The app's version (3, `application_version`): CFBundleVersion on iOS, CFBundleShortVersionString on macOS.
    public var applicationVersion: String
    /// An opaque value used, with other data, to compute the SHA-1 hash (4).
    public var opaqueValue: [UInt8]
    /// The SHA-1 hash of device identifier, opaque value and bundle identifier (5); see ``deviceHash(for:)``.
    public var sha1Hash: [UInt8]
    /// When the receipt was created (12, `receipt_creation_date`); the default verification time.
    public var creationDate: Date
    /// The in-app purchases, in receipt order (17, `in_app`).
    public var inAppPurchases: [InAppPurchaseReceipt]
    /// The version of the app originally purchased (19, `original_application_version`).
    public var originalApplicationVersion: String?
    /// When the receipt expires (21, volume purchase receipts and Xcode); nil when absent or empty.
    public var expirationDate: Date?
    /// Attributes ReceiptKit does not interpret, ordered by type, then version, then value.
    public var unknownAttributes: [ReceiptAttribute] {
        get { unknownStorage.attributes }
        set { unknownStorage = UnknownAttributes(newValue) }
    }
    /// The compact, canonical form of ``unknownAttributes``.
    var unknownStorage: UnknownAttributes

    /// Creates an app receipt.
    ///
    /// - Parameters:
    ///   - receiptType: The receipt type, for example `ProductionSandbox`.
    ///   - bundleIdentifier: The app's bundle identifier.
    ///   - applicationVersion: The app's version.
    ///   - opaqueValue: The opaque value.
    ///   - sha1Hash: The device hash; see ``deviceHash(for:opaqueValue:bundleIdentifier:)``.
    ///   - creationDate: When the receipt was created.
    ///   - inAppPurchases: The in-app purchases.
    ///   - originalApplicationVersion: The version of the app originally purchased.
    ///   - expirationDate: When the receipt expires.
    ///   - unknownAttributes: Attributes to carry along uninterpreted.
    public init(
        receiptType: String? = nil,
        bundleIdentifier: String,
        applicationVersion: String,
        opaqueValue: [UInt8],
        sha1Hash: [UInt8],
        creationDate: Date,
        inAppPurchases: [InAppPurchaseReceipt] = [],
        originalApplicationVersion: String? = nil,
        expirationDate: Date? = nil,
        unknownAttributes: [ReceiptAttribute] = []
    ) {
        self.receiptType = receiptType
        self.bundleIdentifier = bundleIdentifier
        self.applicationVersion = applicationVersion
        self.opaqueValue = opaqueValue
        self.sha1Hash = sha1Hash
        self.creationDate = creationDate
        self.inAppPurchases = inAppPurchases
        self.originalApplicationVersion = originalApplicationVersion
        self.expirationDate = expirationDate
        self.unknownStorage = unknownAttributes.isEmpty ? .empty : UnknownAttributes(unknownAttributes)
    }

    /// The environment named by ``receiptType``, or nil if it is absent or unknown.
    public var environment: ReceiptEnvironment? {
        receiptType.flatMap(ReceiptEnvironment.init(receiptType:))
    }

    /// The SHA-1 hash this receipt should carry for a device: SHA-1 of the device identifier, the opaque value and
    /// the DER encoding of the bundle identifier (as a UTF8String).
    ///
    /// - Parameter device: The device's identifier.
    /// - Returns: 20 bytes; compare with ``sha1Hash``.
    public func deviceHash(for device: DeviceIdentifier) -> [UInt8] {
        Self.deviceHash(for: device, opaqueValue: opaqueValue, bundleIdentifier: bundleIdentifier)
    }

    /// The SHA-1 hash a receipt carries for a device, opaque value and bundle identifier.
    ///
    /// Use it when issuing a receipt, to fill ``sha1Hash``.
    ///
    /// - Parameters:
    ///   - device: The device's identifier.
    ///   - opaqueValue: The receipt's opaque value.
    ///   - bundleIdentifier: The app's bundle identifier.
    /// - Returns: 20 bytes.
    public static func deviceHash(for device: DeviceIdentifier, opaqueValue: [UInt8], bundleIdentifier: String)
        -> [UInt8]
    {
        var writer = DERWriter()
        writer.appendUTF8String(bundleIdentifier)
        return Digest.sha1(device.bytes, opaqueValue, writer.bytes)
    }

    /// Whether ``sha1Hash`` matches a device.
    ///
    /// - Parameter device: The device's identifier.
    /// - Returns: True when the hash matches.
    public func matches(device: DeviceIdentifier) -> Bool {
        deviceHash(for: device) == sha1Hash
    }
}
