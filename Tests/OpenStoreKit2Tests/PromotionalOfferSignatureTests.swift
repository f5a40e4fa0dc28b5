import Foundation
import OpenStoreKit
import OpenStoreKit2
import OpenStoreKitTest
import ReceiptKit
import StoreModels
import StoreSimulator
import TestSupport
import Testing

@Suite("A promotional offer's signature is checked with the store's subscription-offer key", .timeLimit(.minutes(1)))
struct PromotionalOfferSignatureTests {
    static let monthly = "com.example.premium.monthly"
    static let offerID = "com.example.premium.monthly.winback"

    /// A store that knows the test key, and an account that subscribed before (so it is eligible).
    static func eligibleStore() async throws -> SimulatedStore {
        let store = SimulatedStore(lane: .manual)
        store.updateSettings {
            $0.subscriptionOfferKeys[PromotionalOfferSigner.testKeyID] = PromotionalOfferSigner.testPublicKeyPEM
        }
        try await StoreKitEnvironment.withStore(store) {
            let first = try purchased(try await product(monthly).purchase())
            await first.finish()
        }
        try store.expireSubscription(productID: monthly)
        return store
    }

    static func millis(_ store: SimulatedStore) -> Int { Int(store.now.timeIntervalSince1970 * 1000) }

    @Test(
        "An offer signed with the test key buys end to end; the transaction and the renewal info carry the offer"
    )
    func validSignature() async throws {
        let store = try await Self.eligibleStore()
        let signer = PromotionalOfferSigner.test(appBundleID: store.app.bundleIdentifier)
        try await StoreKitEnvironment.withStore(store) {
            let token = UUID()
            let option = try signer.purchaseOption(
                productID: Self.monthly, offerID: Self.offerID, appAccountToken: token, timestamp: Self.millis(store))
            let result = try await product(Self.monthly).purchase(options: [option, .appAccountToken(token)])
            let transaction = try purchased(result)
            #expect(transaction.productID == Self.monthly)
            #expect(transaction.offer?.type == .promotional)
            #expect(transaction.offer?.id == Self.offerID)
            #expect(transaction.appAccountToken == token)
            // Three months at 1.99: the next renewal is still in the offer, and renewal info says so.
            let status = try #require(await transaction.subscriptionStatus)
            let renewal = try status.renewalInfo.payloadValue
            #expect(renewal.offer?.type == .promotional)
            #expect(renewal.offer?.id == Self.offerID)
            #expect(renewal.offer?.paymentMode == .payAsYouGo)
            #expect(renewal.offer?.period.map(String.init(reflecting:)) == "3 months")
            #expect(renewal.renewalPrice == Decimal(string: "1.99"))
            #expect(renewal.currency == Locale.Currency("USD"))
            #expect(renewal.appAccountToken == token)
            #expect(renewal.appTransactionID == transaction.appTransactionID)
            #expect(!renewal.appTransactionID.isEmpty)
        }
    }

    @Test(
        "A signature that does not verify with the configured key fails with invalidOfferSignature",
        arguments: ["bundle", "product", "token", "nonce", "timestamp", "garbage"])
    func invalidSignature(changed: String) async throws {
        let store = try await Self.eligibleStore()
        let bundle = store.app.bundleIdentifier
        let signer = PromotionalOfferSigner.test(appBundleID: changed == "bundle" ? "com.example.other" : bundle)
        let nonce = UUID()
        let timestamp = Self.millis(store)
        var signature = try signer.signature(
            productID: changed == "product" ? "com.example.premium.yearly" : Self.monthly, offerID: Self.offerID,
            appAccountToken: changed == "token" ? UUID().uuidString : nil,
            nonce: changed == "nonce" ? UUID() : nonce, timestamp: changed == "timestamp" ? timestamp - 1 : timestamp)
        if changed == "garbage" { signature = Data(repeating: 7, count: 70) }
        let option = Product.PurchaseOption.promotionalOffer(
            offerID: Self.offerID, keyID: signer.keyID, nonce: nonce, signature: signature, timestamp: timestamp)
        _ = await StoreKitEnvironment.withStore(store) {
            await #expect(throws: Product.PurchaseError.invalidOfferSignature) {
                _ = try await product(Self.monthly).purchase(options: [option])
            }
        }
    }

    @Test(
        "Product.SubscriptionOffer.Signature (iOS 17.4) carries the same signature: a good one buys, a stale one fails")
    func signatureValue() async throws {
        let store = try await Self.eligibleStore()
        let signer = PromotionalOfferSigner.test(appBundleID: store.app.bundleIdentifier)
        let nonce = UUID()
        let timestamp = Self.millis(store)
        let data = try signer.signature(
            productID: Self.monthly, offerID: Self.offerID, appAccountToken: nil, nonce: nonce, timestamp: timestamp)
        let good = Product.SubscriptionOffer.Signature(
            keyID: signer.keyID, nonce: nonce, timestamp: timestamp, signature: data)
        var stale = good
        stale.timestamp -= 1
        try await StoreKitEnvironment.withStore(store) {
            await #expect(throws: Product.PurchaseError.invalidOfferSignature) {
                _ = try await product(Self.monthly).purchase(options: [
                    .promotionalOffer(offerID: Self.offerID, signature: stale)
                ])
            }
            let transaction = try purchased(
                try await product(Self.monthly).purchase(options: [
                    .promotionalOffer(offerID: Self.offerID, signature: good)
                ]))
            #expect(transaction.offer?.type == .promotional)
            #expect(transaction.offer?.id == Self.offerID)
        }
    }

    @Test("StoreKit 1: a payment discount signed with the test key is purchased; a forged one fails invalidSignature")
    func storeKit1() async throws {
        let store = try await Self.eligibleStore()
        let signer = PromotionalOfferSigner.test(appBundleID: store.app.bundleIdentifier)
        let queue = SKPaymentQueue(store: store)
        func pay(_ discount: SKPaymentDiscount) -> SKPaymentTransaction? {
            let payment = SKMutablePayment()
            payment.productIdentifier = Self.monthly
            payment.applicationUsername = "player-1"
            payment.paymentDiscount = discount
            queue.add(payment)
            store.runUntilIdle()
            return queue.transactions.last { $0.payment.paymentDiscount?.nonce == discount.nonce }
        }
        let good = try signer.paymentDiscount(
            productID: Self.monthly, offerID: Self.offerID, applicationUsername: "player-1",
            timestamp: Self.millis(store))
        #expect(pay(good)?.transactionState == .purchased)
        let forged = try signer.paymentDiscount(
            productID: Self.monthly, offerID: Self.offerID, applicationUsername: "player-2",
            timestamp: Self.millis(store))
        let failed = pay(forged)
        #expect(failed?.transactionState == .failed)
        #expect((failed?.error as? SKError)?.code == .invalidSignature)
    }

    @Test("Without a key for the key identifier, only the format, age and nonce are checked")
    func noKeyConfigured() async throws {
        let store = try await Self.eligibleStore()
        let option = Product.PurchaseOption.promotionalOffer(
            offerID: Self.offerID, keyID: "ANOTHER-KEY", nonce: UUID(), signature: Data([1, 2, 3]),
            timestamp: Self.millis(store))
        try await StoreKitEnvironment.withStore(store) {
            _ = try purchased(try await product(Self.monthly).purchase(options: [option]))
        }
    }

    @Test("A configured key that is not a P-256 public key fails the purchase with a message naming the key")
    func unreadableKey() async throws {
        let store = try await Self.eligibleStore()
        store.updateSettings { $0.subscriptionOfferKeys["BROKEN"] = "-----BEGIN PUBLIC KEY-----\nAAAA\n" }
        let queue = SKPaymentQueue(store: store)
        let payment = SKMutablePayment()
        payment.productIdentifier = Self.monthly
        payment.paymentDiscount = SKPaymentDiscount(
            identifier: Self.offerID, keyIdentifier: "BROKEN", nonce: UUID(), signature: "AQID",
            timestamp: NSNumber(value: Self.millis(store)))
        queue.add(payment)
        store.runUntilIdle()
        let failed = try #require(queue.transactions.last)
        #expect(failed.transactionState == .failed)
        #expect((failed.error as? SKError)?.code == .invalidSignature)
        let record = try #require(store.allTransactions().last)
        #expect(record.failure?.message.contains("\"BROKEN\" is not a P-256 public key") == true)
    }

    @Test("The signed message is Apple's: the parts joined by U+2063, token and nonce lowercased")
    func message() {
        let bytes = PromotionalOfferSignature.message(
            appBundleID: "com.example.app", keyID: "K", productID: "p", offerID: "o", appAccountToken: "AB-CD",
            nonce: "EF-01", timestamp: 12)
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == "com.example.app\u{2063}K\u{2063}p\u{2063}o\u{2063}ab-cd\u{2063}ef-01\u{2063}12")
    }
}
