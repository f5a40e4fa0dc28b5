import Foundation
package import StoreSimulator
import Synchronization

/// StoreKit 2 for callers that run a manual store step by step and cannot wait (the feed interpreter): the same
/// client, purchases, listeners and queries as the async API, each call running the store's lane until it is done.
package final class StoreKitDriver: Sendable {
    /// How a purchase ended.
    package enum Outcome: Sendable {
        /// `.success`, with the signed transaction.
        case success(VerificationResult<Transaction>)
        /// `.userCancelled`.
        case userCancelled
        /// `.pending`.
        case pending
        /// The purchase threw this error.
        case failed(String)
    }

    let client: StoreKitClient
    private let listeners = Mutex<[UpdatesListener]>([])

    /// The driver of a device of a manual store.
    package init(store: SimulatedStore, deviceID: String, account: String) {
        client = StoreKitClient.client(for: store, deviceID: deviceID, account: account)
    }

    /// Buys a product as `Product.purchase(options:)` does; `options` adds the purchase options the app builds from
    /// the product (an offer), and a thrown error fails the purchase.
    package func purchase(
        _ productID: String, quantity: Int, askToBuy: Bool,
        options: (Product) throws -> [Product.PurchaseOption] = { _ in [] }
    ) -> Outcome {
        do {
            try client.controls.check(.purchase)
            guard let definition = try client.store.loadProducts([productID]).products.first else {
                return .failed(String(describing: Product.PurchaseError.productUnavailable))
            }
            let settings = client.store.settings
            let product = Product(
                definition, storefront: settings.storefront, locale: settings.locale, client: client)
            let (id, waiter) = client.start(
                try StoreKitClient.request(
                    for: product,
                    options: Set(try options(product)).union([
                        .quantity(quantity), .simulatesAskToBuyInSandbox(askToBuy),
                    ])))
            client.store.runUntilIdle()
            guard let decision = waiter.decided else { return .failed("the store did not decide the purchase") }
            let result = try client.outcome(of: decision, id: id)
            client.store.runUntilIdle()
            switch result {
            case .success(let verification): return .success(verification)
            case .userCancelled: return .userCancelled
            case .pending: return .pending
            }
        } catch {
            return .failed(String(describing: error))
        }
    }

    /// Listens to `Transaction.updates`: `handler` gets each update on the store's lane.
    package func listen(_ handler: @escaping @Sendable (VerificationResult<Transaction>) -> Void) {
        let listener = client.addListener(handler: handler)
        listeners.withLock { $0.append(listener) }
    }

    /// Finishes a transaction as `Transaction.finish()` does.
    package func finish(_ transactionID: UInt64) {
        client.finish(transactionID: transactionID)
        client.store.runUntilIdle()
    }

    /// `Transaction.currentEntitlements`.
    package func currentEntitlements() -> [VerificationResult<Transaction>] {
        client.store.runUntilIdle()
        return client.entitlementRecordIDs().compactMap { client.transactionResult($0) }
    }

    /// The signed transaction of an id, as `Transaction.all` holds it, or `nil` when the store has none.
    package func transaction(_ transactionID: UInt64) -> VerificationResult<Transaction>? {
        client.store.runUntilIdle()
        return client.transactionResult(transactionID)
    }

    /// `Transaction.unfinished`.
    package func unfinished() -> [VerificationResult<Transaction>] {
        client.store.runUntilIdle()
        return client.unfinishedResults()
    }

    /// `Product.SubscriptionInfo.status(for:)`.
    package func statuses(groupID: String) -> [Product.SubscriptionInfo.Status] {
        client.store.runUntilIdle()
        return client.statusesNow(groupID: groupID)
    }
}
