/// A product's title and description in one locale.
public struct ProductLocalization: Sendable, Hashable, Codable {
    /// The locale identifier, such as `en_US`.
    public let locale: String
    /// The title shown to customers.
    public let displayName: String
    /// The description shown to customers.
    public let description: String

    /// Creates a localization.
    public init(locale: String, displayName: String, description: String) {
        self.locale = locale
        self.displayName = displayName
        self.description = description
    }
}
