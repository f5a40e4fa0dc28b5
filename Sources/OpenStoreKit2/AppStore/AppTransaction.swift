public import Foundation
import ReceiptKit

/// The signed record of the app's purchase by the account, decoded from the signed app transaction.
public struct AppTransaction: Equatable, Hashable, Sendable, SignedPayload {
    /// The app's App Store identifier; `nil` outside Production.
    public let appID: UInt64?
    /// The app version the record was made for.
    public let appVersion: String
    /// The App Store's identifier of that version.
    public let appVersionID: UInt64?
    /// The app's bundle identifier.
    public let bundleID: String
    /// The environment that signed it.
    public let environment: AppStore.Environment
    /// The version the account first bought.
    public let originalAppVersion: String
    /// When the account first bought the app.
    public let originalPurchaseDate: Date
    /// When the account pre-ordered the app, if it did.
    public let preorderDate: Date?
    /// The app transaction's identifier.
    public let appTransactionID: String
    /// The device verification value.
    public let deviceVerification: Data
    /// Its nonce.
    public let deviceVerificationNonce: UUID
    /// When the App Store signed it.
    public let signedDate: Date
    /// The platform the customer first bought the app on (iOS 18.4); the simulated store sells on iOS.
    public let originalPlatform: AppStore.Platform
    /// The JWS it was decoded from.
    public let signed: SignedJWS

    init(_ payload: JWSAppTransaction, signed: SignedJWS) {
        appID = payload.appAppleId.map { UInt64(clamping: $0) }
        appVersion = payload.applicationVersion ?? ""
        appVersionID = payload.versionExternalIdentifier.map { UInt64(clamping: $0) }
        bundleID = payload.bundleId ?? ""
        environment = AppStore.Environment(rawValue: payload.receiptType?.rawValue ?? "")
        originalAppVersion = payload.originalApplicationVersion ?? ""
        originalPurchaseDate = payload.originalPurchaseDate?.date ?? Date(timeIntervalSince1970: 0)
        preorderDate = payload.preorderDate?.date
        appTransactionID = payload.appTransactionId ?? ""
        originalPlatform = AppStore.Platform(rawValue: payload.originalPlatform ?? AppStore.Platform.iOS.rawValue)
        deviceVerification = payload.deviceVerification.flatMap { Data(base64Encoded: $0) } ?? Data()
        deviceVerificationNonce =
            payload.deviceVerificationNonce.flatMap { UUID(uuidString: $0) } ?? UUID(uuid: UUID.null)
        signedDate = payload.receiptCreationDate?.date ?? Date(timeIntervalSince1970: 0)
        self.signed = signed
    }

    /// The payload as JSON, with Apple's keys.
    public var jsonRepresentation: Data { signed.payloadData }

    /// The environment's name (use ``environment``).
    public var environmentStringRepresentation: String { environment.rawValue }

    /// The platform's name (use ``originalPlatform``).
    public var originalPlatformStringRepresentation: String { originalPlatform.rawValue }

    /// The bound store's signed app transaction (``StoreKitEnvironment``).
    ///
    /// - Throws: ``StoreKitError`` when a test simulates a failure (`.appTransaction`).
    public static var shared: VerificationResult<AppTransaction> {
        get async throws { try await StoreKitEnvironment.current.appTransaction() }
    }

    /// Signs the app transaction again and returns it.
    ///
    /// - Returns: The signed app transaction.
    /// - Throws: ``StoreKitError`` when a test simulates a failure (`.appTransaction`).
    public static func refresh() async throws -> VerificationResult<AppTransaction> {
        try await StoreKitEnvironment.current.appTransaction()
    }
}
