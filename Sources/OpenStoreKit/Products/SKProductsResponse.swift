public import Foundation

/// The answer to an ``SKProductsRequest``.
public final class SKProductsResponse: NSObject, @unchecked Sendable {
    // @unchecked: both properties are constants; SKProduct is Sendable.

    /// The products found, in the order asked.
    public let products: [SKProduct]
    /// The identifiers the store does not know.
    public let invalidProductIdentifiers: [String]

    /// Creates a response.
    public init(products: [SKProduct], invalidProductIdentifiers: [String]) {
        self.products = products
        self.invalidProductIdentifiers = invalidProductIdentifiers
    }
}
