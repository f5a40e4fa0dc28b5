import StoreKit
import StoreKitTest
import Testing

/// The purchase log, a file that imports only StoreKit, working against a test session.
@Suite("A file that imports only StoreKit", .timeLimit(.minutes(1)))
struct PurchaseLogTests {
    /// A session over a store of this test's own, on the project's `Examples/Default.storekit`.
    func makeSession() throws -> SKTestSession {
        let store = SimulatedStore(lane: .dispatch(DispatchQueue(label: "PurchaseLogTests")))
        let session = try SKTestSession(contentsOf: StoreTests.configuration, store: store)
        session.disableDialogs = true
        session.clearTransactions()
        return session
    }

    @Test("uses Foundation's types, and records a purchase made with an app account token")
    func recordsAPurchase() async throws {
        let session = try makeSession()
        try await StoreKitEnvironment.withStore(session.store) {
            let product = try #require(try await Product.products(for: ["com.example.no-ads"]).first)
            let token = UUID()
            let result = try await product.purchase(options: [.appAccountToken(token)])
            guard case .success(let verification) = result else {
                Issue.record("the purchase did not succeed: \(result)")
                return
            }
            let log = PurchaseLog()
            try log.record(verification)
            let decoded = try PurchaseLog.decode(try log.encoded())
            #expect(decoded == log.entries)
            #expect(decoded.map(\.productID) == ["com.example.no-ads"])
            #expect(decoded.first?.appAccountToken == token)
            #expect(decoded.first?.price == product.price)
        }
    }

    @Test("its errors describe themselves through LocalizedError")
    func describesItsErrors() {
        let error: any Error = PurchaseLogError.unverified(productID: "com.example.no-ads")
        #expect(error.localizedDescription == "The purchase of com.example.no-ads could not be verified.")
    }

    @Test("its NSObject observer hears StoreKit 1's queue")
    func observesTheQueue() async throws {
        let session = try makeSession()
        let log = PurchaseLog()
        let queue = SKPaymentQueue(store: session.store)
        queue.add(log)
        defer { queue.remove(log) }
        let payment = SKMutablePayment()
        payment.productIdentifier = "com.example.consumable"
        queue.add(payment)
        await session.store.idle()
        #expect(log.queueStates == [.purchasing, .purchased])
    }
}
