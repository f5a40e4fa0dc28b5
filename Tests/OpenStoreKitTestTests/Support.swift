import Foundation
import OpenStoreKit
import OpenStoreKitTest
import StoreModels
import StoreSimulator
import Synchronization
import TestSupport
import Testing

/// Product identifiers of the test catalog.
enum Product {
    static let coins = "test.coins"
    static let pro = "test.pro"
    static let goldYearly = "test.gold.yearly"
    static let goldMonthly = "test.gold.monthly"
    static let silverMonthly = "test.silver.monthly"
    static let weekly = "test.other.weekly"
    static let winback = "test.gold.monthly.winback"
}

/// A catalog with every kind of product: a consumable, a non-consumable, a subscription group with three levels
/// (yearly on top, then two monthly plans) and offers, and a weekly plan in a second group.
let testConfiguration: StoreConfiguration = {
    let month = SubscriptionPeriod(value: 1, unit: .month)
    let week = SubscriptionPeriod(value: 1, unit: .week)
    func trial(_ period: SubscriptionPeriod) -> ProductOffer {
        ProductOffer(
            identifier: nil, kind: .introductory, paymentMode: .freeTrial, price: 0, period: period, numberOfPeriods: 1)
    }
    let localized = [
        ProductLocalization(locale: "en_US", displayName: "Coins", description: "A pile of coins"),
        ProductLocalization(locale: "es_ES", displayName: "Monedas", description: "Un montón de monedas"),
    ]
    let products = [
        ProductDefinition(id: Product.coins, type: .consumable, price: 0.99, localizations: localized),
        ProductDefinition(id: Product.pro, type: .nonConsumable, price: 4.99),
        ProductDefinition(
            id: Product.goldYearly,
            type: .autoRenewableSubscription,
            price: 49.99,
            subscription: SubscriptionInfo(
                groupID: "main",
                groupLevel: 1,
                period: SubscriptionPeriod(value: 1, unit: .year),
                introductoryOffer: trial(SubscriptionPeriod(value: 2, unit: .week))
            )
        ),
        ProductDefinition(
            id: Product.goldMonthly,
            type: .autoRenewableSubscription,
            price: 5.99,
            subscription: SubscriptionInfo(
                groupID: "main",
                groupLevel: 2,
                period: month,
                introductoryOffer: trial(week),
                promotionalOffers: [
                    ProductOffer(
                        identifier: Product.winback,
                        kind: .promotional,
                        paymentMode: .payAsYouGo,
                        price: 1.99,
                        period: month,
                        numberOfPeriods: 3
                    )
                ]
            )
        ),
        ProductDefinition(
            id: Product.silverMonthly,
            type: .autoRenewableSubscription,
            price: 2.99,
            subscription: SubscriptionInfo(groupID: "main", groupLevel: 3, period: month)
        ),
        ProductDefinition(
            id: Product.weekly,
            type: .autoRenewableSubscription,
            price: 0.99,
            subscription: SubscriptionInfo(
                groupID: "other",
                groupLevel: 1,
                period: week,
                introductoryOffer: ProductOffer(
                    identifier: nil,
                    kind: .introductory,
                    paymentMode: .payAsYouGo,
                    price: 0.49,
                    period: week,
                    numberOfPeriods: 2
                )
            )
        ),
    ]
    return StoreConfiguration(catalog: StoreCatalog(products: products), sourceName: "test catalog")
}()

let day: TimeInterval = 86_400

/// An isolated test environment: a manual store with the test catalog, a session, a queue and an observer.
struct Environment {
    let store: SimulatedStore
    let session: SKTestSession
    let queue: SKPaymentQueue
    let observer: Recorder

    init(
        configuration: StoreConfiguration = testConfiguration,
        policy: Recorder.Policy = .finishCompleted,
        account: String = SimulatedStore.defaultAccount
    ) {
        store = SimulatedStore(configuration: configuration, lane: .manual)
        session = SKTestSession(store: store)
        queue = SKPaymentQueue(store: store, account: account)
        observer = Recorder(policy: policy)
        queue.add(observer)
    }

    var clock: ManualClock { store.clock as! ManualClock }

    /// Adds a payment for a product and runs the store until everything is delivered.
    func buy(_ productID: String, quantity: Int = 1, discount: SKPaymentDiscount? = nil) {
        let payment = SKMutablePayment()
        payment.productIdentifier = productID
        payment.quantity = quantity
        payment.paymentDiscount = discount
        queue.add(payment)
        store.runUntilIdle()
    }

    /// The session's transactions for a product, oldest first.
    func transactions(of productID: String) -> [SKTestTransaction] {
        session.allTransactions().filter { $0.productIdentifier == productID }
    }
}

/// An observer that records every callback as it was made, and finishes completed transactions unless told not to.
final class Recorder: NSObject, SKPaymentTransactionObserver, @unchecked Sendable {
    // @unchecked: the log is behind a mutex; callbacks come from the store's lane.

    enum Policy {
        case finishCompleted
        case keep
    }

    /// A transaction as reported (the live object changes afterwards).
    struct Update: @unchecked Sendable {
        let object: SKPaymentTransaction
        let productID: String
        let quantity: Int
        let state: SKPaymentTransactionState
        let transactionIdentifier: String?
        let originalIdentifier: String?
        let transactionDate: Date?
        let errorCode: SKError.Code?
    }

    struct Log {
        var updates: [Update] = []
        var removed: [String] = []
        var revoked: [[String]] = []
        var storefronts: [String] = []
        var restores: [String] = []
    }

    let policy: Policy
    private let log = Mutex(Log())

    init(policy: Policy = .finishCompleted) {
        self.policy = policy
    }

    var updates: [Update] { log.withLock { $0.updates } }
    var revoked: [[String]] { log.withLock { $0.revoked } }
    var storefronts: [String] { log.withLock { $0.storefronts } }
    var restores: [String] { log.withLock { $0.restores } }

    /// The states reported for a product, in order.
    func states(of productID: String) -> [SKPaymentTransactionState] {
        updates.filter { $0.productID == productID }.map(\.state)
    }

    /// The updates reported in a state, for a product.
    func updates(of productID: String, in state: SKPaymentTransactionState) -> [Update] {
        updates.filter { $0.productID == productID && $0.state == state }
    }

    func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
        let reported = transactions.map {
            Update(
                object: $0,
                productID: $0.payment.productIdentifier,
                quantity: $0.payment.quantity,
                state: $0.transactionState,
                transactionIdentifier: $0.transactionIdentifier,
                originalIdentifier: $0.original?.transactionIdentifier,
                transactionDate: $0.transactionDate,
                errorCode: ($0.error as? SKError)?.code
            )
        }
        log.withLock { $0.updates.append(contentsOf: reported) }
        guard policy == .finishCompleted else { return }
        for transaction in transactions where [.purchased, .restored, .failed].contains(transaction.transactionState) {
            queue.finishTransaction(transaction)
        }
    }

    func paymentQueue(_ queue: SKPaymentQueue, removedTransactions transactions: [SKPaymentTransaction]) {
        log.withLock { $0.removed.append(contentsOf: transactions.map(\.payment.productIdentifier)) }
    }

    func paymentQueue(_ queue: SKPaymentQueue, didRevokeEntitlementsForProductIdentifiers productIdentifiers: [String])
    {
        log.withLock { $0.revoked.append(productIdentifiers) }
    }

    func paymentQueueDidChangeStorefront(_ queue: SKPaymentQueue) {
        let code = queue.storefront?.countryCode ?? "-"
        log.withLock { $0.storefronts.append(code) }
    }

    func paymentQueueRestoreCompletedTransactionsFinished(_ queue: SKPaymentQueue) {
        log.withLock { $0.restores.append("finished") }
    }

    func paymentQueue(_ queue: SKPaymentQueue, restoreCompletedTransactionsFailedWithError error: any Error) {
        let code = (error as? SKError)?.code.rawValue ?? -1
        log.withLock { $0.restores.append("failed \(code)") }
    }
}

/// The folder of real `.storekit` files written by Xcode, in the shared test data; tests that read it carry
/// `.requiresSharedData`.
func samplesFolder() throws -> URL {
    let folder = SharedData.storeKitSamples
    var isDirectory: ObjCBool = false
    try #require(
        FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) && isDirectory.boolValue,
        "the .storekit samples are missing: expected them in \(folder.path)"
    )
    return folder
}

/// A sample `.storekit` file by name.
func sample(_ name: String) throws -> URL {
    let url = try samplesFolder().appendingPathComponent(name)
    try #require(FileManager.default.fileExists(atPath: url.path), "the sample \(url.path) is missing")
    return url
}

/// The repository's own `.storekit` file, `Examples/Default.storekit`: always there.
let defaultConfiguration = RepositoryFiles.example("Default.storekit")

/// A promotional offer signed now (the store checks the parameters' presence, the signature's encoding, the
/// timestamp's age and the nonce's novelty).
func discount(
    _ offerID: String,
    at date: Date,
    keyIdentifier: String = "KEY1",
    signature: String = Data("signature".utf8).base64EncodedString()
) -> SKPaymentDiscount {
    SKPaymentDiscount(
        identifier: offerID,
        keyIdentifier: keyIdentifier,
        nonce: UUID(),
        signature: signature,
        timestamp: NSNumber(value: Int64(date.timeIntervalSince1970 * 1000))
    )
}
