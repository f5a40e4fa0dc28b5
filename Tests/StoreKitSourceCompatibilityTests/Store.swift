// An app's store, written for iOS with StoreKit 2 as Apple's sample code writes it, observable with Observation (Combine's
// `ObservableObject` does not exist on Linux). This file compiles unchanged on Linux against the project's `StoreKit`
// product; keep it free of anything iOS would not compile.
import Foundation
import Observation
import StoreKit

typealias Transaction = StoreKit.Transaction
typealias RenewalInfo = StoreKit.Product.SubscriptionInfo.RenewalInfo
typealias RenewalState = StoreKit.Product.SubscriptionInfo.RenewalState

enum StoreError: Error {
    case failedVerification
}

@Observable
@MainActor
final class Store {
    private(set) var consumables: [Product] = []
    private(set) var nonConsumables: [Product] = []
    private(set) var nonRenewables: [Product] = []
    private(set) var subscriptions: [Product] = []

    private(set) var purchasedNonConsumables: [Product] = []
    private(set) var purchasedNonRenewables: [Product] = []
    private(set) var purchasedSubscriptions: [Product] = []
    private(set) var subscriptionGroupStatus: RenewalState?

    /// Transactions the updates listener delivered, by product identifier, in order.
    private(set) var deliveredByListener: [String] = []

    @ObservationIgnored private var updateListenerTask: Task<Void, Never>?
    @ObservationIgnored private let productIDs: [String: String]

    init(productIDs: [String: String]) {
        self.productIDs = productIDs
        updateListenerTask = listenForTransactions()
    }

    deinit {
        updateListenerTask?.cancel()
    }

    func stopListening() {
        updateListenerTask?.cancel()
        updateListenerTask = nil
    }

    private func listenForTransactions() -> Task<Void, Never> {
        Task { [weak self] in
            // Iterate through any transactions that don't come from a direct call to `purchase()`.
            for await result in Transaction.updates {
                guard let self else { return }
                do {
                    let transaction = try self.checkVerified(result)
                    await self.updateCustomerProductStatus()
                    self.deliveredByListener.append(transaction.productID)
                    await transaction.finish()
                } catch {
                    print("Transaction failed verification.")
                }
            }
        }
    }

    func requestProducts() async throws {
        let storeProducts = try await Product.products(for: productIDs.keys)
        var newConsumables: [Product] = []
        var newNonConsumables: [Product] = []
        var newNonRenewables: [Product] = []
        var newSubscriptions: [Product] = []
        for product in storeProducts {
            switch product.type {
            case .consumable:
                newConsumables.append(product)
            case .nonConsumable:
                newNonConsumables.append(product)
            case .autoRenewable:
                newSubscriptions.append(product)
            case .nonRenewable:
                newNonRenewables.append(product)
            default:
                print("Unknown product.")
            }
        }
        consumables = sortByPrice(newConsumables)
        nonConsumables = sortByPrice(newNonConsumables)
        nonRenewables = sortByPrice(newNonRenewables)
        subscriptions = sortByPrice(newSubscriptions)
    }

    func purchase(_ product: Product) async throws -> Transaction? {
        let result = try await product.purchase()
        switch result {
        case .success(let verification):
            let transaction = try checkVerified(verification)
            await updateCustomerProductStatus()
            await transaction.finish()
            return transaction
        case .userCancelled, .pending:
            return nil
        @unknown default:
            return nil
        }
    }

    func isPurchased(_ product: Product) async throws -> Bool {
        switch product.type {
        case .nonRenewable:
            return purchasedNonRenewables.contains(product)
        case .nonConsumable:
            return purchasedNonConsumables.contains(product)
        case .autoRenewable:
            return purchasedSubscriptions.contains(product)
        default:
            return false
        }
    }

    nonisolated func checkVerified<T>(_ result: VerificationResult<T>) throws -> T {
        switch result {
        case .unverified:
            throw StoreError.failedVerification
        case .verified(let safe):
            return safe
        }
    }

    func updateCustomerProductStatus() async {
        var purchasedNonConsumables: [Product] = []
        var purchasedSubscriptions: [Product] = []
        var purchasedNonRenewables: [Product] = []
        for await result in Transaction.currentEntitlements {
            do {
                let transaction = try checkVerified(result)
                switch transaction.productType {
                case .nonConsumable:
                    if let product = nonConsumables.first(where: { $0.id == transaction.productID }) {
                        purchasedNonConsumables.append(product)
                    }
                case .nonRenewable:
                    if let product = nonRenewables.first(where: { $0.id == transaction.productID }) {
                        purchasedNonRenewables.append(product)
                    }
                case .autoRenewable:
                    if let product = subscriptions.first(where: { $0.id == transaction.productID }) {
                        purchasedSubscriptions.append(product)
                    }
                default:
                    break
                }
            } catch {
                print("Transaction failed verification.")
            }
        }
        self.purchasedNonConsumables = purchasedNonConsumables
        self.purchasedNonRenewables = purchasedNonRenewables
        self.purchasedSubscriptions = purchasedSubscriptions
        subscriptionGroupStatus = try? await subscriptions.first?.subscription?.status.max { lhs, rhs in
            lhs.state.rawValue < rhs.state.rawValue
        }?.state
    }

    func latestRenewalInfo(for product: Product) async throws -> RenewalInfo? {
        guard let statuses = try await product.subscription?.status else { return nil }
        for status in statuses {
            guard case .verified(let renewalInfo) = status.renewalInfo,
                case .verified(let transaction) = status.transaction,
                transaction.productID == product.id
            else { continue }
            return renewalInfo
        }
        return nil
    }

    /// Restores purchases when the customer asks: syncs with the App Store, then reads the entitlements again.
    func restorePurchases() async throws {
        try await AppStore.sync()
        await updateCustomerProductStatus()
    }

    func emoji(for productID: String) -> String {
        productIDs[productID] ?? productID
    }

    func sortByPrice(_ products: [Product]) -> [Product] {
        products.sorted(by: { $0.price < $1.price })
    }
}
