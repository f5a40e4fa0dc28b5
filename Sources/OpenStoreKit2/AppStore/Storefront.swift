import Foundation
import StoreModels
import StoreSimulator

/// The App Store storefront of the bound account: its country code and the App Store's identifier for it.
public struct Storefront: Identifiable, Hashable, Sendable {
    /// The ISO 3166-1 alpha-3 country code, such as `USA`.
    public let countryCode: String
    /// The App Store's identifier of the storefront, such as `143441`.
    public let id: String

    init(countryCode: String, id: String) {
        self.countryCode = countryCode
        self.id = id
    }

    init(_ storefront: StoreModels.Storefront) {
        self.init(countryCode: storefront.countryCode, id: storefront.identifier)
    }

    /// The storefront of the bound store (``StoreKitEnvironment``).
    public static var current: Storefront? {
        get async {
            let client = StoreKitEnvironment.current
            return Storefront(client.store.settings.storefront)
        }
    }
}
