/// The app a store sells to: what its receipts name.
public struct AppIdentity: Sendable, Hashable {
    /// The bundle identifier (receipt attribute 2).
    public var bundleIdentifier: String
    /// The app version, `CFBundleVersion` (attribute 3).
    public var applicationVersion: String
    /// The version first bought (attribute 19).
    public var originalApplicationVersion: String

    /// Creates an app identity.
    public init(
        bundleIdentifier: String = "com.example.app",
        applicationVersion: String = "1",
        originalApplicationVersion: String = "1.0"
    ) {
        self.bundleIdentifier = bundleIdentifier
        self.applicationVersion = applicationVersion
        self.originalApplicationVersion = originalApplicationVersion
    }
}
