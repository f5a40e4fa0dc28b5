extension AppStore {
    /// A platform of the App Store, such as the one a customer first bought an app on
    /// (``AppTransaction/originalPlatform``).
    public struct Platform: RawRepresentable, Hashable, Sendable {
        /// The signed app transaction's spelling: `iOS`, `macOS`, `tvOS` or `visionOS`.
        public let rawValue: String

        /// Creates a platform from its spelling.
        ///
        /// - Parameter rawValue: The spelling.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// iOS and iPadOS.
        public static let iOS = Platform(rawValue: "iOS")
        /// macOS.
        public static let macOS = Platform(rawValue: "macOS")
        /// tvOS.
        public static let tvOS = Platform(rawValue: "tvOS")
        /// visionOS.
        public static let visionOS = Platform(rawValue: "visionOS")
    }
}
