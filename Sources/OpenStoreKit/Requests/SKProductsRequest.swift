import Foundation
import StoreModels
public import StoreSimulator

/// Asks the store for products by identifier.
///
/// Its delegate gets `productsRequest(_:didReceive:)` then `requestDidFinish(_:)`, or `request(_:didFailWithError:)`.
/// Unknown identifiers come back in ``SKProductsResponse/invalidProductIdentifiers``; none found is still a success.
public final class SKProductsRequest: SKRequest, @unchecked Sendable {
    // @unchecked: the identifiers are constant; the rest is SKRequest's.

    /// The identifiers asked for.
    public let productIdentifiers: Set<String>

    /// Creates a request to `SimulatedStore.default`.
    public convenience init(productIdentifiers: Set<String>) {
        self.init(productIdentifiers: productIdentifiers, store: .default)
    }

    /// Creates a request to a store.
    public init(productIdentifiers: Set<String>, store: SimulatedStore) {
        self.productIdentifiers = productIdentifiers
        super.init(store: store)
    }

    /// Looks the products up and answers the delegate.
    public override func perform() {
        do throws(StoreFailure) {
            let settings = store.settings
            let (found, invalid) = try store.loadProducts(productIdentifiers.sorted())
            let products = found.map {
                SKProduct($0, localeIdentifier: settings.locale, storefront: settings.storefront)
            }
            let response = SKProductsResponse(products: products, invalidProductIdentifiers: invalid)
            (delegate as? any SKProductsRequestDelegate)?.productsRequest(self, didReceive: response)
            delegate?.requestDidFinish(self)
        } catch {
            delegate?.request(self, didFailWithError: SKError(error))
        }
    }
}
