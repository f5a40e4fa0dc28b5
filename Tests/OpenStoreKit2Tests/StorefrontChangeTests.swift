import Foundation
import OpenStoreKit
import OpenStoreKit2
import StoreModels
import StoreSimulator
import Synchronization
import Testing

/// Moves the store to another storefront when the device's purchase is reported `.purchasing`: the storefront
/// changes while the purchase is in progress, as when a customer switches countries mid-purchase.
private final class StorefrontMover: NSObject, SKPaymentTransactionObserver, @unchecked Sendable {
    let store: SimulatedStore
    let countryCode: String

    init(store: SimulatedStore, countryCode: String) {
        self.store = store
        self.countryCode = countryCode
    }

    func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
        if transactions.contains(where: { $0.transactionState == .purchasing }) {
            store.updateSettings { $0.storefront = Storefront(countryCode: countryCode) }
        }
    }
}

@Suite("Product.PurchaseOption.onStorefrontChange", .timeLimit(.minutes(1)))
struct StorefrontChangeTests {
    /// Buys `com.example.pro` with the storefront moving to Germany mid-purchase; the closure answers `answer`.
    func buy(answering answer: Bool?) async throws -> (
        result: Result<Product.PurchaseResult, any Error>, asked: [String]
    ) {
        let store = SimulatedStore(lane: .manual)
        let queue = SKPaymentQueue(store: store)
        let mover = StorefrontMover(store: store, countryCode: "DEU")
        queue.add(mover)
        defer { queue.remove(mover) }
        let asked = Mutex<[String]>([])
        let result = await StoreKitEnvironment.withStore(store) {
            () async -> Result<Product.PurchaseResult, any Error> in
            do {
                let pro = try await product("com.example.pro")
                let options: Set<Product.PurchaseOption> =
                    answer.map { answer in
                        [
                            .onStorefrontChange { storefront in
                                asked.withLock { $0.append(storefront.countryCode) }
                                return answer
                            }
                        ]
                    } ?? []
                return .success(try await pro.purchase(options: options))
            } catch {
                return .failure(error)
            }
        }
        return (result, asked.withLock { $0 })
    }

    @Test("A closure that answers no stops the purchase: productUnavailable, and nothing bought")
    func declined() async throws {
        let (result, asked) = try await buy(answering: false)
        #expect(asked == ["DEU"])
        #expect(throws: Product.PurchaseError.productUnavailable) { try result.get() }
    }

    @Test("A closure that answers yes lets the purchase go on in the new storefront")
    func accepted() async throws {
        let (result, asked) = try await buy(answering: true)
        #expect(asked == ["DEU"])
        let transaction = try purchased(try result.get())
        #expect(transaction.productID == "com.example.pro")
        #expect(transaction.storefront.countryCode == "DEU")
    }

    @Test("Without the option the purchase goes on, as Apple's default")
    func withoutTheOption() async throws {
        let (result, asked) = try await buy(answering: nil)
        #expect(asked.isEmpty)
        #expect(try purchased(try result.get()).productID == "com.example.pro")
    }

    @Test("Two options made from closures are different options; the same option is equal to itself")
    func identity() {
        let option = Product.PurchaseOption.onStorefrontChange { _ in true }
        #expect(option == option)
        #expect(option != Product.PurchaseOption.onStorefrontChange { _ in true })
    }
}
