public import OpenStoreKit

/// Loaded products, and the identifiers the store does not know.
public struct ProductsResult: Sendable {
    /// The products, in the order the store returned them.
    public let products: [SKProduct]
    /// The identifiers the store does not know.
    public let invalidIdentifiers: [String]
}
