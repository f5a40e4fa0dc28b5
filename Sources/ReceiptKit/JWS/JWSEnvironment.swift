/// The environment a StoreKit 2 JWS was signed for: its payload's `environment` (an app transaction's
/// `receiptType`), with Apple's raw values.
public struct JWSEnvironment: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The raw value, as it appears in the payload.
    public let rawValue: String

    /// Creates an environment from its raw value.
    ///
    /// - Parameter rawValue: The payload's value, for example `Sandbox`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The App Store's sandbox (`Sandbox`).
    public static let sandbox = JWSEnvironment(rawValue: "Sandbox")
    /// The App Store (`Production`).
    public static let production = JWSEnvironment(rawValue: "Production")
    /// StoreKit testing in Xcode (`Xcode`): signed by Xcode's self-signed certificate.
    public static let xcode = JWSEnvironment(rawValue: "Xcode")
    /// Apple's server libraries' unit-test environment (`LocalTesting`).
    public static let localTesting = JWSEnvironment(rawValue: "LocalTesting")

    /// The raw value.
    public var description: String {
        rawValue
    }
}
