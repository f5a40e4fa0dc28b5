import Foundation
import ReceiptKit
import StoreModels
import StoreSimulator
import TestSupport
import Testing

private let day: TimeInterval = 86_400
private let token = "6F9619FF-8B86-D011-B42D-00C04FC964FF"

/// Milliseconds since 1970 of a date, as the payloads carry them.
private func milliseconds(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1000).rounded(.towardZero))
}

/// A verifier that trusts the committed JWS test root, read from `Receipts/jws/root.pem`.
private func committedRootVerifier() throws -> JWSVerifier {
    let url = RepositoryFiles.root.appendingPathComponent("Receipts/jws/root.pem")
    let pem = try String(contentsOf: url, encoding: .utf8)
    return try JWSVerifier(trustedRoots: [X509Certificate(pemEncoded: pem)])
}

@Suite("What the store signs: transactions")
struct SignedTransactionTests {
    private func store() -> SimulatedStore {
        SimulatedStore(configuration: .demo, clock: ManualClock(), lane: .manual)
    }

    @Test("A consumable maps to Apple's keys: identifiers as digits, milli-unit price, storefront, reason")
    func consumable() throws {
        let store = store()
        let record = try store.buyProduct("com.example.coins100", quantity: 3, applicationUsername: token)
        let value = try store.signedTransactionValue(record.id)
        let payload = value.payload
        #expect(payload.transactionId == String(record.id))
        #expect(payload.originalTransactionId == String(record.id))
        #expect(payload.bundleId == "com.example.app")
        #expect(payload.productId == "com.example.coins100")
        #expect(payload.type == .consumable)
        #expect(payload.quantity == 3)
        #expect(payload.price == 2970, "3 × 0.99 in milli-units")
        #expect(payload.currency == "USD")
        #expect(payload.storefront == "USA")
        #expect(payload.storefrontId == "143441")
        #expect(payload.purchaseDate?.millisecondsSince1970 == milliseconds(record.purchaseDate))
        #expect(payload.originalPurchaseDate == payload.purchaseDate)
        #expect(payload.expiresDate == nil)
        #expect(payload.subscriptionGroupIdentifier == nil)
        #expect(payload.webOrderLineItemId == nil)
        #expect(payload.transactionReason == .purchase)
        #expect(payload.environment == .sandbox)
        #expect(payload.inAppOwnershipType == .purchased)
        #expect(payload.appAccountToken == token.lowercased(), "a UUID application username is the app account token")
        #expect(payload.signedDate?.millisecondsSince1970 == milliseconds(store.now))
        #expect(payload.offerType == nil && payload.revocationDate == nil && payload.isUpgraded == nil)
        #expect(payload.appTransactionId == (try store.signedAppTransactionValue().payload.appTransactionId))
        let decoded = try committedRootVerifier().verify(value.jwsRepresentation).decode(JWSTransaction.self)
        #expect(decoded == payload, "the JWS carries exactly the payload handed out beside it")
    }

    @Test("A non-consumable with a username that is not a UUID carries no app account token")
    func nonConsumable() throws {
        let store = store()
        let record = try store.buyProduct("com.example.pro", applicationUsername: "player-7")
        let payload = try store.signedTransactionValue(record.id).payload
        #expect(payload.type == .nonConsumable)
        #expect(payload.price == 9990)
        #expect(payload.quantity == 1)
        #expect(payload.appAccountToken == nil)
    }

    @Test("A subscription bought in its free trial: group, line item, expiry and the introductory offer")
    func introductoryOffer() throws {
        let store = store()
        let record = try store.buyProduct("com.example.premium.monthly")
        let payload = try store.signedTransactionValue(record.id).payload
        #expect(payload.type == .autoRenewable)
        #expect(payload.subscriptionGroupIdentifier == "premium")
        #expect(payload.webOrderLineItemId == record.webOrderLineItemID.map { String($0) })
        #expect(payload.webOrderLineItemId != nil)
        let expires = try #require(record.expirationDate)
        #expect(payload.expiresDate?.millisecondsSince1970 == milliseconds(expires))
        #expect(payload.offerType == .introductory)
        #expect(payload.offerIdentifier == nil, "introductory offers have no identifier")
        #expect(payload.offerDiscountType == .freeTrial)
        #expect(payload.offerPeriod == "P1W")
        #expect(payload.price == 0)
        #expect(payload.transactionReason == .purchase)
    }

    @Test("A renewal is a new transaction of the same original, reason RENEWAL, at the full price")
    func renewal() throws {
        let store = store()
        let first = try store.buyProduct("com.example.premium.monthly")
        try store.advance(by: 8 * day)
        let periods = store.transactions().filter { $0.originalID == first.id && $0.id != first.id }
        #expect(periods.count == 1)
        guard let renewal = periods.first else {
            Issue.record("the subscription did not renew")
            return
        }
        let payload = try store.signedTransactionValue(renewal.id).payload
        #expect(payload.transactionId == String(renewal.id))
        #expect(payload.originalTransactionId == String(first.id))
        #expect(payload.originalPurchaseDate?.millisecondsSince1970 == milliseconds(first.purchaseDate))
        #expect(payload.transactionReason == .renewal)
        #expect(payload.offerType == nil)
        #expect(payload.price == 4990)
        #expect(payload.webOrderLineItemId != (try store.signedTransactionValue(first.id).payload.webOrderLineItemId))
    }

    @Test("A period in a promotional offer names the offer, how it is paid and its duration")
    func promotionalOffer() {
        var record = TransactionRecord(
            id: 7, account: "default", productID: "com.example.premium.monthly",
            productType: .autoRenewableSubscription, quantity: 1, state: .purchased,
            purchaseDate: Date(timeIntervalSince1970: 1_800_000_000),
            expirationDate: Date(timeIntervalSince1970: 1_802_592_000), webOrderLineItemID: 9,
            promotionalOfferID: "com.example.premium.monthly.winback")
        record.isInIntroOfferPeriod = false
        let mapping = SignedPayloadMapping(
            app: AppIdentity(), environment: .sandbox, storefront: .unitedStates,
            catalog: StoreConfiguration.demo.catalog)
        let payload = mapping.transaction(record, signedDate: Date(timeIntervalSince1970: 1_800_000_001))
        #expect(payload.offerType == .promotional)
        #expect(payload.offerIdentifier == "com.example.premium.monthly.winback")
        #expect(payload.offerDiscountType == .payAsYouGo)
        #expect(payload.offerPeriod == "P3M", "three monthly periods")
        #expect(payload.price == 1990)
        #expect(payload.signedDate?.millisecondsSince1970 == 1_800_000_001_000)
    }

    @Test("An upgrade marks the replaced period upgraded, without a revocation, and the new one keeps the original")
    func upgrade() throws {
        let store = store()
        let monthly = try store.buyProduct("com.example.premium.monthly")
        try store.advance(by: 2 * day)
        let yearly = try store.buyProduct("com.example.premium.yearly")
        let replaced = try store.signedTransactionValue(monthly.id).payload
        #expect(replaced.isUpgraded == true)
        #expect(replaced.revocationDate == nil && replaced.revocationReason == nil)
        let upgraded = try store.signedTransactionValue(yearly.id).payload
        #expect(upgraded.originalTransactionId == String(monthly.id))
        #expect(upgraded.transactionReason == .purchase)
        #expect(upgraded.price == 39990)
        #expect(upgraded.isUpgraded == nil)
    }

    @Test("A refund adds the revocation and signs again; an unchanged record hands out the same JWS")
    func refund() throws {
        let store = store()
        let record = try store.buyProduct("com.example.pro")
        let before = try store.signedTransaction(record.id)
        try store.advance(by: day)
        #expect(try store.signedTransaction(record.id) == before, "nothing changed: the cached JWS")
        _ = try store.refund(record.id, reason: .developerIssue)
        let after = try store.signedTransactionValue(record.id)
        #expect(after.jwsRepresentation != before)
        #expect(after.payload.revocationDate?.millisecondsSince1970 == milliseconds(store.now))
        #expect(after.payload.revocationReason == .developerIssue)
        #expect(after.payload.signedDate?.millisecondsSince1970 == milliseconds(store.now))
        let verified = try committedRootVerifier().verify(after.jwsRepresentation)
        #expect(verified.signedDate == after.payload.signedDate?.date)
    }

    @Test("An unknown transaction is refused with its code")
    func unknownTransaction() {
        #expect(throws: StoreSimulatorError(.unknownTransaction, "")) { try store().signedTransaction(42) }
        #expect(StoreSimulatorError.Code.transactionNotSigned.rawValue == 140)
        #expect(StoreSimulatorError.Code.jwsSigningFailed.rawValue == 141)
    }
}
