public import StoreModels

/// The products a store sells, in the order their configuration lists them.
public struct StoreCatalog: Sendable, Hashable {
    /// Every product, in configuration order.
    public let products: [ProductDefinition]
    private let index: [String: Int]

    /// Creates a catalog. When two products share an identifier, the first wins.
    public init(products: [ProductDefinition]) {
        var index: [String: Int] = [:]
        var unique: [ProductDefinition] = []
        for product in products where index[product.id] == nil {
            index[product.id] = unique.count
            unique.append(product)
        }
        self.products = unique
        self.index = index
    }

    /// The product with the identifier, if the catalog has it.
    public func product(_ id: String) -> ProductDefinition? {
        index[id].map { products[$0] }
    }

    /// The auto-renewable subscriptions of a group, highest level first.
    public func subscriptions(inGroup groupID: String) -> [ProductDefinition] {
        products.filter { $0.subscription?.groupID == groupID }
            .sorted { ($0.subscription?.groupLevel ?? 0) < ($1.subscription?.groupLevel ?? 0) }
    }
}
