public import Foundation
import StoreSimulator

/// The App Store as StoreKit 2 names it: whether payments are allowed, the device's verification identifier, and a
/// sync of transactions. It talks to the store bound with ``StoreKitEnvironment`` (`SimulatedStore.default`
/// unless a test binds its own).
public enum AppStore: Sendable {
    /// The server environment a signed value comes from.
    public struct Environment: RawRepresentable, Hashable, Sendable {
        /// The JWS spelling: `Production`, `Sandbox`, `Xcode` or `LocalTesting`.
        public let rawValue: String

        /// Creates an environment from its JWS spelling.
        ///
        /// - Parameter rawValue: The spelling.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The App Store.
        public static let production = Environment(rawValue: "Production")
        /// The sandbox (the simulated store's environment by default).
        public static let sandbox = Environment(rawValue: "Sandbox")
        /// StoreKit testing in Xcode.
        public static let xcode = Environment(rawValue: "Xcode")
    }

    /// Whether the bound device's account may make payments.
    public static var canMakePayments: Bool {
        let client = StoreKitEnvironment.current
        return client.store.paymentsAllowed(account: client.account)
    }

    /// The identifier `deviceVerification` values are computed with: the bound device's identifier, when it is a
    /// UUID.
    public static var deviceVerificationID: UUID? {
        UUID(uuidString: StoreKitEnvironment.current.deviceID)
    }

    /// Syncs the device's transactions with the store. The simulated store is always in sync, so this only waits for
    /// work the store has queued; it fails only when a test simulates a failure (`.appStoreSync`).
    ///
    /// - Throws: ``StoreKitError``, the simulated failure.
    public static func sync() async throws {
        let client = StoreKitEnvironment.current
        try client.controls.check(.appStoreSync)
        await client.store.idle()
    }
}
