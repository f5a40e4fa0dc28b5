import Foundation
import OpenStoreKit
import OpenStoreKitTest
import Synchronization
import TestSupport
import Testing

// The tests in this file are written as they would be against Apple's frameworks, with `import StoreKit` and
// `import StoreKitTest` in place of the two OpenStoreKit imports above: a session from a configuration file controls the
// store behind `SKPaymentQueue.default()`, and callbacks arrive on the main queue. That store is shared, so every test
// that touches it lives in this one serialized suite.

/// An observer that hands the callbacks of the payment queue to a test as they arrive.
private final class QueueEvents: NSObject, SKPaymentTransactionObserver, @unchecked Sendable {
    enum Event: Sendable {
        case updated(productIdentifier: String, state: SKPaymentTransactionState, identifier: String?)
        case removed(productIdentifier: String)
        case revoked([String])
    }

    let stream: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation

    override init() {
        (stream, continuation) = AsyncStream.makeStream(of: Event.self)
    }

    func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
        dispatchPrecondition(condition: .onQueue(.main))
        for transaction in transactions {
            continuation.yield(
                .updated(
                    productIdentifier: transaction.payment.productIdentifier,
                    state: transaction.transactionState,
                    identifier: transaction.transactionIdentifier
                )
            )
            switch transaction.transactionState {
            case .purchased, .failed, .restored: queue.finishTransaction(transaction)
            case .purchasing, .deferred: break
            }
        }
    }

    func paymentQueue(_ queue: SKPaymentQueue, removedTransactions transactions: [SKPaymentTransaction]) {
        for transaction in transactions {
            continuation.yield(.removed(productIdentifier: transaction.payment.productIdentifier))
        }
    }

    func paymentQueue(_ queue: SKPaymentQueue, didRevokeEntitlementsForProductIdentifiers productIdentifiers: [String])
    {
        continuation.yield(.revoked(productIdentifiers))
    }
}

/// Loads products through `SKProductsRequest`, as an app does.
private final class ProductLoader: NSObject, SKProductsRequestDelegate, @unchecked Sendable {
    private var continuation: CheckedContinuation<[SKProduct], any Error>?
    private var request: SKProductsRequest?

    func load(_ identifiers: Set<String>) async throws -> [SKProduct] {
        try await withCheckedThrowingContinuation { continuation in
            self.continuation = continuation
            let request = SKProductsRequest(productIdentifiers: identifiers)
            self.request = request
            request.delegate = self
            request.start()
        }
    }

    func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse) {
        continuation?.resume(returning: response.products)
        continuation = nil
    }

    func request(_ request: SKRequest, didFailWithError error: any Error) {
        continuation?.resume(throwing: error)
        continuation = nil
    }
}

@Suite("Apple-style tests on the default store", .serialized, .timeLimit(.minutes(1)))
struct DefaultStoreTests {
    let session: SKTestSession

    init() throws {
        session = try SKTestSession(contentsOf: defaultConfiguration)
        session.resetToDefaultState()
        session.disableDialogs = true
        session.clearTransactions()
    }

    @Test("Buy a subscription, expire it, refund it")
    func buyExpireRefund() async throws {
        let events = QueueEvents()
        let queue = SKPaymentQueue.default()
        queue.add(events)
        defer { queue.remove(events) }

        let products = try await bounded("the products request") {
            try await ProductLoader().load(["com.example.auto-renewable"])
        }
        let product = try #require(products.first)
        #expect(product.subscriptionPeriod?.unit == .month)
        #expect(product.subscriptionGroupIdentifier == "0E5A17C5")

        queue.add(SKPayment(product: product))
        var states: [SKPaymentTransactionState] = []
        var identifier: String?
        while case .updated(_, let state, let transactionIdentifier)? = try await next(
            events.stream, "the next payment queue callback")
        {
            states.append(state)
            if state == .purchased {
                identifier = transactionIdentifier
                break
            }
        }
        #expect(states == [.purchasing, .purchased])
        guard case .removed(let finished)? = try await next(events.stream, "the next payment queue callback") else {
            Issue.record("expected the purchase to leave the queue")
            return
        }
        #expect(finished == "com.example.auto-renewable")

        let purchase = try #require(session.allTransactions().first)
        #expect(String(purchase.identifier) == identifier)
        #expect(purchase.autoRenewingEnabled)
        #expect(try #require(purchase.expirationDate) > Date())

        try session.expireSubscription(productIdentifier: "com.example.auto-renewable")
        let expired = try #require(session.allTransactions().first)
        #expect(try #require(expired.expirationDate) <= Date())
        #expect(!expired.autoRenewingEnabled)

        try session.refundTransaction(identifier: purchase.identifier)
        guard case .revoked(let revoked)? = try await next(events.stream, "the next payment queue callback") else {
            Issue.record("expected the refund to revoke the entitlement")
            return
        }
        #expect(revoked == ["com.example.auto-renewable"])
        #expect(session.allTransactions().first?.cancelDate != nil)
    }

    @Test("Ask to Buy approved from inside the observer")
    func askToBuyApproved() async throws {
        session.askToBuyEnabled = true
        let events = QueueEvents()
        let queue = SKPaymentQueue.default()
        queue.add(events)
        defer { queue.remove(events) }

        let payment = SKMutablePayment()
        payment.productIdentifier = "com.example.consumable"
        queue.add(payment)
        var states: [SKPaymentTransactionState] = []
        while case .updated(_, let state, _)? = try await next(events.stream, "the next payment queue callback") {
            states.append(state)
            if state == .deferred {
                let waiting = session.allTransactions().first { $0.pendingAskToBuyConfirmation }
                let pending = try #require(waiting)
                try session.approveAskToBuyTransaction(identifier: pending.identifier)
            }
            if state == .purchased { break }
        }
        #expect(states == [.purchasing, .deferred, .purchased])
    }

    @Test("session.advance(by:) on the default store renews a subscription and delivers the renewal")
    func advanceOnDefaultStore() async throws {
        let events = QueueEvents()
        let queue = SKPaymentQueue.default()
        queue.add(events)
        defer { queue.remove(events) }
        var iterator = events.stream.makeAsyncIterator()

        let products = try await ProductLoader().load(["com.example.auto-renewable"])
        let product = try #require(products.first)
        queue.add(SKPayment(product: product))
        var purchase: String?
        while case .updated(_, let state, let identifier)? = await iterator.next() {
            if state == .purchased {
                purchase = identifier
                break
            }
        }
        let bought = try #require(purchase)
        let before = Date()

        // A monthly subscription after a free week: 40 days hold at least one renewal.
        try session.advance(by: 40 * 86_400)
        let renewals = session.allTransactions().filter { String($0.identifier) != bought }
        #expect(!renewals.isEmpty)
        #expect(renewals.allSatisfy { $0.originalTransactionIdentifier == Int(bought) })
        // Renewed on the store's clock, which went ahead of the system clock: the first at the trial's end, a week
        // after the purchase, so at least six days from now.
        #expect(renewals.allSatisfy { $0.purchaseDate >= before.addingTimeInterval(6 * 86_400) })

        // The renewal reaches the queue on the main queue, as a new purchased transaction.
        var renewal: String?
        while let event = await iterator.next() {
            if case .updated(_, .purchased, let identifier) = event, identifier != bought {
                renewal = identifier
                break
            }
        }
        #expect(renewal != nil)
        #expect(renewal.map { identifier in renewals.contains { String($0.identifier) == identifier } } == true)
    }
}
