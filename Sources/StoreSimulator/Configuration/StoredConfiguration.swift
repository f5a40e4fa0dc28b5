import Foundation
import StoreModels

/// A ``StoreConfiguration`` as the journal and snapshots store it (JSON): the catalog's products, the default
/// settings and the source name.
struct StoredConfiguration: Codable, Sendable {
    var products: [ProductDefinition]
    var settings: StoreSettings
    var sourceName: String

    init(_ configuration: StoreConfiguration) {
        self.products = configuration.catalog.products
        self.settings = configuration.settings
        self.sourceName = configuration.sourceName
    }

    /// The configuration stored.
    var configuration: StoreConfiguration {
        StoreConfiguration(catalog: StoreCatalog(products: products), settings: settings, sourceName: sourceName)
    }
}
