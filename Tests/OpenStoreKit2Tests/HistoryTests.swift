import Foundation
import OpenStoreKit
import OpenStoreKit2
import OpenStoreKitTest
import ReceiptKit
import StoreModels
import StoreSimulator
import TestSupport
import Testing

@Suite("Transaction: fields, history, entitlements, unfinished, verification", .timeLimit(.minutes(1)))
struct HistoryTests {
    @Test("A purchased transaction carries the signed payload's fields and verifies against the store's root")
    func fields() async throws {
        let store = SimulatedStore(lane: .manual)
        try await StoreKitEnvironment.withStore(store) {
            let token = UUID()
            let result = try await product("com.example.coins100").purchase(options: [
                .quantity(3), .appAccountToken(token),
            ])
            guard case .success(let verification) = result else {
                Issue.record("expected .success, got \(result)")
                return
            }
            guard case .verified(let transaction) = verification else {
                Issue.record("expected .verified, got \(verification)")
                return
            }
            #expect(transaction.productID == "com.example.coins100")
            #expect(transaction.productType == .consumable)
            #expect(transaction.purchasedQuantity == 3)
            #expect(transaction.appAccountToken == token)
            #expect(transaction.appBundleID == store.app.bundleIdentifier)
            #expect(transaction.originalID == transaction.id)
            #expect(transaction.purchaseDate == store.now)
            #expect(transaction.environment == .sandbox)
            #expect(transaction.storefront.countryCode == "USA")
            #expect(transaction.ownershipType == .purchased)
            let jws = verification.jwsRepresentation
            #expect(jws.split(separator: ".").count == 3)
            #expect(transaction.jsonRepresentation == verification.payloadData)
            let verifier = try JWSVerifier(trustedRoots: [.openStoreKitJWSTestRoot])
            let decoded = try verifier.verify(jws).decode(JWSTransaction.self)
            #expect(decoded.transactionId == String(transaction.id))
            #expect(decoded.quantity == 3)
        }
    }

    @Test("all, unfinished, latest(for:) and currentEntitlements follow Apple's rules")
    func history() async throws {
        let store = SimulatedStore(lane: .manual)
        try await StoreKitEnvironment.withStore(store) {
            let coins = try purchased(try await product("com.example.coins100").purchase())
            let pro = try purchased(try await product("com.example.pro").purchase())
            let monthly = try purchased(try await product("com.example.premium.monthly").purchase())
            #expect(
                await collect(Transaction.unfinished).map(\.unsafePayloadValue.id) == [coins.id, pro.id, monthly.id])
            #expect(await collect(Transaction.all).map(\.unsafePayloadValue.id) == [coins.id, pro.id, monthly.id])
            await coins.finish()
            await pro.finish()
            // A finished consumable leaves `all`, `latest(for:)` and `unfinished`; it never was an entitlement.
            #expect(await collect(Transaction.unfinished).map(\.unsafePayloadValue.id) == [monthly.id])
            #expect(await collect(Transaction.all).map(\.unsafePayloadValue.id) == [pro.id, monthly.id])
            #expect(await Transaction.latest(for: "com.example.coins100") == nil)
            #expect(await Transaction.latest(for: "com.example.pro")?.unsafePayloadValue.id == pro.id)
            #expect(
                await collect(Transaction.currentEntitlements).map(\.unsafePayloadValue.id) == [pro.id, monthly.id])
            let status = try #require(try await Product.SubscriptionInfo.status(for: "premium").first)
            #expect(status.state == .subscribed)
            #expect(status.transaction.unsafePayloadValue.id == monthly.id)
            #expect(try status.renewalInfo.payloadValue.willAutoRenew)
            #expect(await monthly.subscriptionStatus?.state == .subscribed)
            #expect(await Product.SubscriptionInfo.isEligibleForIntroOffer(for: "premium") == false)
        }
    }

    @Test("A simulated verification failure makes every signed value unverified, with the error")
    func simulatedVerificationFailure() async throws {
        let store = SimulatedStore(lane: .manual)
        let session = SKTestSession(store: store)
        try await session.setSimulatedError(.verification(.invalidSignature), forAPI: .verification)
        try await StoreKitEnvironment.withStore(store) {
            let result = try await product("com.example.pro").purchase()
            guard case .success(.unverified(let transaction, let error)) = result else {
                Issue.record("expected an unverified success, got \(result)")
                return
            }
            #expect(error == .invalidSignature)
            #expect(transaction.productID == "com.example.pro")
            #expect(throws: VerificationResult<Transaction>.VerificationError.invalidSignature) {
                _ = try result.verification?.payloadValue
            }
            try await session.setSimulatedError(nil, forAPI: .verification)
            guard case .verified = try #require(await Transaction.latest(for: "com.example.pro")) else {
                Issue.record("expected a verified transaction once the failure is cleared")
                return
            }
        }
    }

    @Test(
        "A tampered JWS from the store comes back unverified with the matching error",
        arguments: [
            (JWSTampering.payload, VerificationResult<Transaction>.VerificationError.invalidSignature),
            (.signature, .invalidSignature), (.wrongRoot, .invalidCertificateChain),
        ])
    func tampered(tampering: JWSTampering, expected: VerificationResult<Transaction>.VerificationError) async throws {
        let store = SimulatedStore(lane: .manual)
        store.jwsTampering = tampering
        try await StoreKitEnvironment.withStore(store) {
            let result = try await product("com.example.pro").purchase()
            guard case .success(.unverified(let transaction, let error)) = result else {
                Issue.record("expected an unverified success, got \(result)")
                return
            }
            #expect(error == expected)
            #expect(transaction.productID == "com.example.pro")
            store.jwsTampering = .none
            guard case .verified = try #require(await Transaction.latest(for: "com.example.pro")) else {
                Issue.record("expected the JWS to verify once the store stops tampering")
                return
            }
        }
    }

    @Test("A store that signs Xcode-style hands out transactions that verify, with environment Xcode")
    func xcodeSigned() async throws {
        let store = SimulatedStore(lane: .manual, jwsSigner: JWSSigner(identity: .openStoreKitXcode))
        try await StoreKitEnvironment.withStore(store) {
            let transaction = try purchased(try await product("com.example.pro").purchase())
            #expect(transaction.environment == .xcode)
        }
    }

    @Test("The app transaction is signed for the store's app and verifies")
    func appTransaction() async throws {
        let store = SimulatedStore(lane: .manual)
        try await StoreKitEnvironment.withStore(store) {
            let shared = try await AppTransaction.shared
            let appTransaction = try shared.payloadValue
            #expect(appTransaction.bundleID == store.app.bundleIdentifier)
            #expect(appTransaction.appVersion == store.app.applicationVersion)
            #expect(appTransaction.originalPlatform == .iOS)
            #expect(appTransaction.originalPlatformStringRepresentation == "iOS")
            #expect(appTransaction.environmentStringRepresentation == "Sandbox")
        }
    }

    @Test("An unfinished purchase survives a restart of a durable store: the first listener hears it once")
    func restart() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let path = folder.file("state.sqlite")
        var store = try SimulatedStore(statePath: path, lane: .manual)
        let id = try await StoreKitEnvironment.withStore(store) {
            try purchased(try await product("com.example.pro").purchase()).id
        }
        try store.close()
        store = try SimulatedStore(statePath: path, lane: .manual)
        let reopened = store
        try await StoreKitEnvironment.withStore(reopened) {
            let tap = UpdatesTap()
            let redelivered = try await tap.next().payloadValue
            #expect(redelivered.id == id)
            await redelivered.finish()
            #expect(await collect(Transaction.unfinished).isEmpty)
            let elsewhere = try await SKTestSession(store: reopened).buyProduct(identifier: "com.example.coins100")
            #expect(try await tap.next().unsafePayloadValue.id == elsewhere.id)
            tap.stop()
        }
        try store.close()
    }
}

extension Product.PurchaseResult {
    /// The signed transaction of a success.
    var verification: VerificationResult<Transaction>? {
        if case .success(let verification) = self { return verification }
        return nil
    }
}
