import Foundation
import ReceiptKit
import StoreModels
import StoreSimulator
import TestSupport
import Testing

private let day: TimeInterval = 86_400

private func milliseconds(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1000).rounded(.towardZero))
}

private func committedRoot() throws -> X509Certificate {
    let url = RepositoryFiles.root.appendingPathComponent("Receipts/jws/root.pem")
    return try X509Certificate(pemEncoded: String(contentsOf: url, encoding: .utf8))
}

@Suite("What the store signs: renewal info, app transactions, Xcode mode, tampering")
struct SignedRenewalInfoTests {
    private func store(signer: JWSSigner = JWSSigner()) -> SimulatedStore {
        SimulatedStore(configuration: .demo, clock: ManualClock(), lane: .manual, jwsSigner: signer)
    }

    @Test("A running subscription's renewal info: products, auto-renew, renewal date and price, run start")
    func running() throws {
        let store = store()
        let first = try store.buyProduct("com.example.premium.monthly")
        try store.advance(by: 8 * day)
        let subscription = try #require(store.subscription(groupID: "premium"))
        let payload = try store.signedRenewalInfoValue(groupID: "premium").payload
        #expect(payload.originalTransactionId == String(first.id))
        #expect(payload.productId == "com.example.premium.monthly")
        #expect(payload.autoRenewProductId == "com.example.premium.monthly")
        #expect(payload.autoRenewStatus == .on)
        #expect(payload.isInBillingRetryPeriod == false)
        #expect(payload.expirationIntent == nil)
        #expect(payload.priceIncreaseStatus == nil)
        #expect(payload.renewalDate?.millisecondsSince1970 == milliseconds(subscription.expiresAt))
        #expect(payload.recentSubscriptionStartDate?.millisecondsSince1970 == milliseconds(first.purchaseDate))
        #expect(payload.renewalPrice == 4990)
        #expect(payload.currency == "USD")
        #expect(payload.environment == .sandbox)
        #expect(payload.signedDate?.millisecondsSince1970 == milliseconds(store.now))
        #expect(
            try store.signedRenewalInfoValue(originalTransactionID: first.id).payload == payload,
            "by group and by original transaction, the same renewal info")
    }

    @Test("Turning auto-renew off, then expiring: status 0, then the customer-cancelled intent")
    func cancelled() throws {
        let store = store()
        let first = try store.buyProduct("com.example.premium.monthly")
        try store.setAutoRenew(false, transactionID: first.id)
        let off = try store.signedRenewalInfoValue(originalTransactionID: first.id).payload
        #expect(off.autoRenewStatus == .off)
        try store.advance(by: 10 * day)
        let expired = try store.signedRenewalInfoValue(originalTransactionID: first.id).payload
        #expect(expired.expirationIntent == .customerCancelled)
        #expect(expired.renewalDate == nil)
    }

    @Test("A downgrade waiting for the next renewal shows in autoRenewProductId")
    func downgrade() throws {
        let store = store()
        _ = try store.buyProduct("com.example.premium.yearly")
        _ = try store.buyProduct("com.example.premium.monthly")
        let payload = try store.signedRenewalInfoValue(groupID: "premium").payload
        #expect(payload.productId == "com.example.premium.yearly")
        #expect(payload.autoRenewProductId == "com.example.premium.monthly")
        #expect(payload.renewalPrice == 4990)
    }

    @Test("No subscription in the group is refused with noSubscription")
    func noSubscription() {
        #expect(throws: StoreSimulatorError(.noSubscription, "")) { try store().signedRenewalInfo(groupID: "premium") }
        #expect(throws: StoreSimulatorError(.noSubscription, "")) {
            try store().signedRenewalInfo(originalTransactionID: 1)
        }
    }

    @Test("The app transaction: sandbox receipt type, the app's versions, created at signing")
    func appTransaction() throws {
        let store = store()
        try store.advance(by: day)
        let value = try store.signedAppTransactionValue(account: "ann")
        let payload = value.payload
        #expect(payload.receiptType == .sandbox)
        #expect(payload.bundleId == "com.example.app")
        #expect(payload.applicationVersion == "1")
        #expect(payload.originalApplicationVersion == "1.0")
        #expect(payload.receiptCreationDate?.millisecondsSince1970 == milliseconds(store.now))
        #expect(payload.originalPurchaseDate?.millisecondsSince1970 == 1_375_340_400_000)
        let id = try #require(payload.appTransactionId)
        #expect(id.count == 18 && id.allSatisfy(\.isNumber))
        #expect(try store.signedAppTransactionValue(account: "bob").payload.appTransactionId != id)
        #expect(try store.signedAppTransaction(account: "ann") == value.jwsRepresentation, "unchanged: cached")
        let verified = try JWSVerifier(trustedRoots: [committedRoot()])
            .verify(value.jwsRepresentation, options: .init(time: .signedDate, bundleIdentifier: "com.example.app"))
        #expect(try verified.decode(JWSAppTransaction.self) == payload)
    }

    @Test("Every value the store signs verifies against the committed root at its signed date, for its bundle")
    func everythingVerifies() throws {
        let store = store()
        _ = try store.buyProduct("com.example.coins100")
        _ = try store.buyProduct("com.example.pro")
        _ = try store.buyProduct("com.example.season")
        let monthly = try store.buyProduct("com.example.premium.monthly")
        try store.advance(by: 40 * day)
        _ = try store.refund(monthly.id)
        var signed = try store.transactions().filter { $0.state == .purchased }.map {
            try store.signedTransaction($0.id)
        }
        signed.append(try store.signedRenewalInfo(groupID: "premium"))
        signed.append(try store.signedAppTransaction())
        #expect(signed.count >= 7)
        let verifier = try JWSVerifier(trustedRoots: [committedRoot()])
        let options = JWSVerificationOptions(bundleIdentifier: "com.example.app", environment: .sandbox)
        for jws in signed {
            let verified = try verifier.verify(jws, options: options)
            #expect(verified.isXcodeSigned == false)
            #expect(verified.certificateChain.count == 3)
        }
    }

    @Test("Xcode mode signs environment Xcode with one certificate, which verifies only when Xcode data is allowed")
    func xcodeMode() throws {
        let store = store(signer: JWSSigner(identity: .openStoreKitXcode))
        #expect(store.jwsEnvironment == .xcode)
        let record = try store.buyProduct("com.example.pro")
        let value = try store.signedTransactionValue(record.id)
        #expect(value.payload.environment == .xcode)
        #expect(try store.signedAppTransactionValue().payload.receiptType == .xcode)
        let verifier = try JWSVerifier(trustedRoots: [.openStoreKitXcodeTestCertificate])
        #expect(throws: ReceiptError(.xcodeJWSNotAllowed, "")) { try verifier.verify(value.jwsRepresentation) }
        let verified = try verifier.verify(value.jwsRepresentation, options: .init(allowsXcode: true))
        #expect(verified.isXcodeSigned)
        #expect(throws: ReceiptError.self) {
            try JWSVerifier(trustedRoots: [committedRoot()]).verify(value.jwsRepresentation)
        }
    }

    @Test(
        "A tampered JWS is refused with the matching code; the store keeps signing honestly",
        arguments: [
            (JWSTampering.payload, ReceiptError.Code.signatureInvalid),
            (.signature, .signatureInvalid),
            (.wrongRoot, .chainNotTrusted),
        ])
    func tampering(_ tampering: JWSTampering, code: ReceiptError.Code) throws {
        let store = store()
        let record = try store.buyProduct("com.example.premium.monthly")
        let honest = try store.signedTransaction(record.id)
        let verifier = try JWSVerifier(trustedRoots: [committedRoot()])
        store.jwsTampering = tampering
        let spoiled = [
            try store.signedTransaction(record.id), try store.signedRenewalInfo(groupID: "premium"),
            try store.signedAppTransaction(),
        ]
        for jws in spoiled {
            #expect(jws != honest)
            #expect(throws: ReceiptError(code, "")) { try verifier.verify(jws) }
        }
        let payload = try store.signedTransactionValue(record.id).payload
        #expect(payload.transactionId == String(record.id), "the payload handed out beside it stays honest")
        store.jwsTampering = .none
        #expect(try store.signedTransaction(record.id) == honest)
        _ = try verifier.verify(honest)
    }
}
