import Foundation
import OpenStoreKit
import StoreSimulator

/// Loads one product through `SKProductsRequest` on a manual store, as the App Store shows it to the user.
final class FeedProductLoader: NSObject, SKProductsRequestDelegate, @unchecked Sendable {
    // @unchecked: a feed runs on one thread; the request answers on its manual store's lane, run by `load`.
    /// Why a product could not be loaded.
    struct Failure: Error {
        /// What went wrong.
        var message: String
    }

    private var product: SKProduct?
    private var failure: String?

    /// The product, or why the store did not return it.
    static func load(_ identifier: String, from store: SimulatedStore) -> Result<SKProduct, Failure> {
        let loader = FeedProductLoader()
        let request = SKProductsRequest(productIdentifiers: [identifier], store: store)
        request.delegate = loader
        request.start()
        store.runUntilIdle()
        if let product = loader.product { return .success(product) }
        return .failure(Failure(message: loader.failure ?? "the store did not return \(identifier)"))
    }

    func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse) {
        product = response.products.first
    }

    func request(_ request: SKRequest, didFailWithError error: any Error) {
        failure = "loading the product failed: \(error)"
    }
}
