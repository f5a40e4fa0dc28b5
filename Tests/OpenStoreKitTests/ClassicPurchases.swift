import Foundation
import OpenStoreKit
import StoreSimulator

/// A purchase-handling module written the classic StoreKit 1 way, as iOS apps have it, compiled against
/// OpenStoreKit unchanged but for the import. The queue and store are injectable so tests can run in parallel; an app
/// passes nothing and gets `SKPaymentQueue.default()`.
final class ClassicPurchases: NSObject, SKProductsRequestDelegate, SKPaymentTransactionObserver, @unchecked Sendable {
    enum PurchasesError: Error, Equatable {
        case purchaseInProgress
        case productNotFound
        case unknown
    }

    typealias ProductsCompletion = (Result<[SKProduct], any Error>) -> Void
    typealias PurchaseCompletion = (Result<String, any Error>) -> Void

    private let queue: SKPaymentQueue
    private let productIdentifiers: Set<String>
    private var productsRequest: SKProductsRequest?
    private var productsCompletions: [ProductsCompletion] = []
    private(set) var products: [String: SKProduct] = [:]
    private var purchaseCompletion: PurchaseCompletion?
    private var restoreCompletion: ((Result<[String], any Error>) -> Void)?
    private var restored: [String] = []
    /// What the app unlocked: product identifiers, in delivery order.
    private(set) var delivered: [String] = []
    /// Products requests started, to check that concurrent loads share one.
    private(set) var requestsStarted = 0

    init(queue: SKPaymentQueue = .default(), productIdentifiers: Set<String>) {
        self.queue = queue
        self.productIdentifiers = productIdentifiers
        super.init()
        queue.add(self)
    }

    // MARK: Products

    func loadProducts(_ completion: @escaping ProductsCompletion) {
        productsCompletions.append(completion)
        guard productsRequest == nil else { return }
        let request = SKProductsRequest(productIdentifiers: productIdentifiers, store: queue.store)
        request.delegate = self
        productsRequest = request
        requestsStarted += 1
        request.start()
    }

    func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse) {
        for product in response.products { products[product.productIdentifier] = product }
        finishLoading(.success(response.products))
    }

    func request(_ request: SKRequest, didFailWithError error: any Error) {
        finishLoading(.failure(error))
    }

    private func finishLoading(_ result: Result<[SKProduct], any Error>) {
        let completions = productsCompletions
        productsCompletions = []
        productsRequest = nil
        for completion in completions { completion(result) }
    }

    /// "Pro — $9.99", with the price in the storefront's currency.
    func displayLine(for product: SKProduct) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .currency
        formatter.locale = product.priceLocale
        return "\(product.localizedTitle) — \(formatter.string(from: product.price) ?? "?")"
    }

    // MARK: Purchasing

    func purchase(_ productID: String, completion: @escaping PurchaseCompletion) {
        guard purchaseCompletion == nil, restoreCompletion == nil else {
            return completion(.failure(PurchasesError.purchaseInProgress))
        }
        guard let product = products[productID] else { return completion(.failure(PurchasesError.productNotFound)) }
        purchaseCompletion = completion
        queue.add(SKPayment(product: product))
    }

    func restore(completion: @escaping (Result<[String], any Error>) -> Void) {
        guard purchaseCompletion == nil, restoreCompletion == nil else {
            return completion(.failure(PurchasesError.purchaseInProgress))
        }
        restored = []
        restoreCompletion = completion
        queue.restoreCompletedTransactions()
    }

    func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
        for transaction in transactions {
            switch transaction.transactionState {
            case .purchased, .restored:
                delivered.append(transaction.payment.productIdentifier)  // deliver first...
                queue.finishTransaction(transaction)  // ...then finish
                if transaction.transactionState == .restored {
                    restored.append(transaction.payment.productIdentifier)
                } else {
                    complete(.success(transaction.payment.productIdentifier))
                }
            case .failed:
                queue.finishTransaction(transaction)
                complete(.failure(transaction.error ?? PurchasesError.unknown))
            case .purchasing, .deferred:
                break
            }
        }
    }

    func paymentQueueRestoreCompletedTransactionsFinished(_ queue: SKPaymentQueue) {
        let completion = restoreCompletion
        restoreCompletion = nil
        completion?(.success(restored))
    }

    func paymentQueue(_ queue: SKPaymentQueue, restoreCompletedTransactionsFailedWithError error: any Error) {
        let completion = restoreCompletion
        restoreCompletion = nil
        completion?(.failure(error))
    }

    private func complete(_ result: Result<String, any Error>) {
        let completion = purchaseCompletion
        purchaseCompletion = nil
        completion?(result)
    }
}
