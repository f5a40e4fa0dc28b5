public import Foundation
import StoreModels

/// The App Store storefront of the queue's account.
public final class SKStorefront: NSObject, Sendable {
    /// The ISO 3166-1 alpha-3 country code, such as `USA`.
    public let countryCode: String
    /// The App Store's identifier of the storefront.
    public let identifier: String

    init(_ storefront: Storefront) {
        self.countryCode = storefront.countryCode
        self.identifier = storefront.identifier
    }

    /// Storefronts are equal when their identifiers and country codes are.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? SKStorefront else { return false }
        return other.countryCode == countryCode && other.identifier == identifier
    }

    /// A hash of the country code.
    public override var hash: Int { countryCode.hashValue }

    /// `<SKStorefront: USA 143441>`.
    public override var description: String { "<SKStorefront: \(countryCode) \(identifier)>" }
}
