import Foundation
import ReceiptKit
import StoreModels
import StoreSimulator
import TestSupport
import Testing

@Suite("A state file keeps payments with offers signed as JWS")
struct SignedOfferJournalTests {
    static let monthly = "com.example.premium.monthly"
    static let offerID = "com.example.premium.monthly.winback"

    @Test("Reopened, a store shows the same history and the payment's JWS, and decides as before")
    func stateFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        var store = try SimulatedStore(statePath: path, configuration: .demo, lane: .manual)
        try store.buyProduct(Self.monthly)
        try store.expireSubscription(productID: Self.monthly)
        // The store has no key for this kid: it checks every claim but the signature (docs/decisions.md 98).
        let key = try ES256Key.generate()
        let bundle = store.app.bundleIdentifier
        let offer = try SignedOfferRequest(
            audience: .promotionalOffer, keyID: "K", issuerID: "i", bundleID: bundle, productID: Self.monthly,
            issuedAt: store.now, offerIdentifier: Self.offerID
        ).signed(with: key)
        let eligibility = try SignedOfferRequest(
            audience: .introductoryOfferEligibility, keyID: "K", issuerID: "i", bundleID: bundle,
            productID: Self.monthly, issuedAt: store.now,
            transactionID: SignedPayloadMapping.appTransactionID(account: SimulatedStore.defaultAccount),
            allowIntroductoryOffer: false
        ).signed(with: key)
        let (connection, listener) = store.silentConnection("phone")
        let payment = PaymentRequest(
            productID: Self.monthly,
            signedPromotionalOffer: SignedPromotionalOffer(offerID: Self.offerID, compactJWS: offer),
            introductoryOfferEligibilityJWS: eligibility)
        let id = connection.submit(payment)
        store.runUntilIdle()
        let again = connection.submit(payment)
        store.runUntilIdle()
        withExtendedLifetime(listener) {}
        #expect(connection.unfinishedTransaction(id)?.state == .purchased)
        #expect(connection.unfinishedTransaction(again)?.failure?.code == .invalidSignature)
        let before = store.transactions()
        #expect(before.contains { $0.promotionalOfferID == Self.offerID })
        try store.close()
        store = try SimulatedStore(statePath: path, lane: .manual)
        #expect(store.transactions() == before)
        let kept = store.unfinishedTransactions(deviceID: "phone").map(\.payment)
        #expect(kept.contains(payment))
    }
}

@Suite("A state file keeps purchases made with StoreKit Test's purchase options")
struct TestPurchaseJournalTests {
    @Test("Reopened, a store shows the same history: a dated purchase, its renewals, its offer")
    func stateFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        var store = try SimulatedStore(statePath: path, configuration: .demo, lane: .manual)
        let monthly = "com.example.premium.monthly"
        try store.buyProduct(
            "com.example.premium.yearly",
            options: TestPurchaseOptions(purchaseDate: store.now.addingTimeInterval(-400 * 86_400)))
        try store.buyProduct(
            "com.example.coins100", options: TestPurchaseOptions(purchaseDate: store.now.addingTimeInterval(-86_400)))
        try store.expireSubscription(productID: "com.example.premium.yearly")
        try store.buyProduct(
            monthly, options: TestPurchaseOptions(promotionalOfferID: "com.example.premium.monthly.winback"))
        let before = store.transactions()
        #expect(before.count == 4)
        #expect(before.last?.promotionalOfferID == "com.example.premium.monthly.winback")
        try store.close()
        store = try SimulatedStore(statePath: path, lane: .manual)
        #expect(store.transactions() == before)
    }
}
