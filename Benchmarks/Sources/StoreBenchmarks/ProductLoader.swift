import Foundation
import OpenStoreKit
import StoreSimulator

/// Loads one product the way an app does: an `SKProductsRequest` with a delegate.
final class ProductLoader: NSObject, SKProductsRequestDelegate {
    private var products: [SKProduct] = []

    /// The product with an identifier, from a manual store (the request runs on the calling thread).
    static func product(_ identifier: String, from store: SimulatedStore) throws -> SKProduct {
        let loader = ProductLoader()
        let request = SKProductsRequest(productIdentifiers: [identifier], store: store)
        request.delegate = loader
        request.start()
        store.runUntilIdle()
        guard let product = loader.products.first(where: { $0.productIdentifier == identifier }) else {
            throw BenchmarkError("the store's catalog has no product \(identifier)")
        }
        return product
    }

    func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse) {
        products = response.products
    }
}
