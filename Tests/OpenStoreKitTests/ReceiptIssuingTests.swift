import Foundation
import OpenStoreKit
import ReceiptKit
import StoreModels
import StoreSimulator
import Synchronization
import Testing

@Suite("Receipts issued by the simulated store")
struct ReceiptIssuingTests {
    let store = SimulatedStore(lane: .manual)
    let queue: SKPaymentQueue
    let observer = RecordingObserver(policy: .keep)

    init() {
        queue = SKPaymentQueue(store: store)
        queue.add(observer)
    }

    func buy(_ product: String) {
        let payment = SKMutablePayment()
        payment.productIdentifier = product
        queue.add(payment)
        store.runUntilIdle()
    }

    func verified(at date: Date? = nil) throws -> AppReceipt {
        let verifier = try ReceiptVerifier(trustedRoots: [], trustsTestRoot: true)
        let data = try #require(queue.appStoreReceiptData())
        return try verifier.verify(
            Array(data),
            options: ReceiptVerificationOptions(
                time: .date(date ?? store.now),
                bundleIdentifier: "com.example.app",
                deviceIdentifier: SimulatedStore.deviceIdentifier(for: queue.deviceID)
            )
        ).receipt
    }

    @Test("The receipt lists purchases as StoreKit does and verifies for the app and the device")
    func contents() throws {
        buy("com.example.pro")
        buy("com.example.coins100")
        buy("com.example.premium.monthly")
        buy("com.example.season")
        var receipt = try verified()
        #expect(receipt.bundleIdentifier == "com.example.app")
        #expect(receipt.applicationVersion == "1")
        #expect(receipt.originalApplicationVersion == "1.0")
        // In-app entries are a DER SET, so they come back in canonical (encoding) order, not purchase order.
        #expect(
            Set(receipt.inAppPurchases.map(\.productIdentifier)) == [
                "com.example.pro", "com.example.coins100", "com.example.premium.monthly", "com.example.season",
            ]
        )
        #expect(receipt.inAppPurchases.count == 4)
        let monthly = try #require(
            receipt.inAppPurchases.first { $0.productIdentifier == "com.example.premium.monthly" })
        #expect(monthly.isTrialPeriod)
        #expect(monthly.subscriptionExpirationDate == store.now.addingTimeInterval(7 * 86_400))
        #expect(monthly.webOrderLineItemIdentifier != nil)
        #expect(monthly.productType == .autoRenewableSubscription)

        for transaction in queue.transactions { queue.finishTransaction(transaction) }
        store.runUntilIdle()
        receipt = try verified()
        #expect(
            !receipt.inAppPurchases.contains { $0.productIdentifier == "com.example.coins100" },
            "finished consumables leave the receipt")
        #expect(receipt.inAppPurchases.count == 3)
    }

    @Test("A refund puts a cancellation date in the receipt")
    func refund() throws {
        buy("com.example.pro")
        let record = try #require(store.allTransactions().first)
        (store.clock as? ManualClock)?.advance(by: 3_600)
        _ = try store.refund(record.id)
        store.runUntilIdle()
        let entry = try #require(try verified().inAppPurchases.first)
        #expect(entry.cancellationDate == store.now)
        #expect(observer.revocations == [["com.example.pro"]])
    }

    @Test("The receipt is signed when read and signed again only after a change")
    func signedOnChange() throws {
        buy("com.example.pro")
        let first = try store.appReceipt(deviceID: queue.deviceID)
        (store.clock as? ManualClock)?.advance(by: 60)
        #expect(try store.appReceipt(deviceID: queue.deviceID) == first, "nothing changed: the same bytes")
        buy("com.example.season")
        let second = try store.appReceipt(deviceID: queue.deviceID)
        #expect(second != first)
        let receipt = try AppReceipt(unverifiedReceipt: second)
        #expect(receipt.creationDate == store.now)
    }

    @Test("Another device's hash does not match")
    func otherDevice() throws {
        buy("com.example.pro")
        let verifier = try ReceiptVerifier(trustedRoots: [], trustsTestRoot: true)
        let bytes = try store.appReceipt(deviceID: queue.deviceID)
        #expect(throws: ReceiptError(.deviceHashMismatch)) {
            try verifier.verify(
                bytes,
                options: ReceiptVerificationOptions(
                    deviceIdentifier: SimulatedStore.deviceIdentifier(for: "another-phone"))
            )
        }
    }

    @Test("appStoreReceiptURL holds the same bytes as the receipt data")
    func receiptFile() throws {
        buy("com.example.pro")
        let url = try #require(queue.appStoreReceiptURL)
        #expect(try Data(contentsOf: url) == queue.appStoreReceiptData())
    }

    @Test("SKReceiptRefreshRequest finishes, fails with the simulated error, and can make the receipt expired")
    func refreshRequest() throws {
        buy("com.example.pro")
        let delegate = RefreshDelegate()
        let request = SKReceiptRefreshRequest(receiptProperties: nil, store: store, deviceID: queue.deviceID)
        request.delegate = delegate
        request.start()
        store.runUntilIdle()
        #expect(delegate.events == ["finish"])

        let expiring = SKReceiptRefreshRequest(
            receiptProperties: [SKReceiptPropertyIsExpired: true], store: store, deviceID: queue.deviceID)
        expiring.delegate = delegate
        expiring.start()
        store.runUntilIdle()
        let receipt = try AppReceipt(unverifiedReceipt: try #require(queue.appStoreReceiptData().map(Array.init)))
        #expect(try #require(receipt.expirationDate) < store.now)

        store.updateSettings {
            $0.simulatedErrors[.receiptRefresh] = StoreFailure(.cloudServiceNetworkConnectionFailed, "offline")
        }
        let failing = SKReceiptRefreshRequest(receiptProperties: nil, store: store, deviceID: queue.deviceID)
        failing.delegate = delegate
        failing.start()
        store.runUntilIdle()
        #expect(delegate.events == ["finish", "finish", "fail 7"])
    }
}

private final class RefreshDelegate: NSObject, SKRequestDelegate, @unchecked Sendable {
    private let log = Mutex<[String]>([])
    var events: [String] { log.withLock { $0 } }
    func requestDidFinish(_ request: SKRequest) { log.withLock { $0.append("finish") } }
    func request(_ request: SKRequest, didFailWithError error: any Error) {
        log.withLock { $0.append("fail \((error as NSError).code)") }
    }
}
