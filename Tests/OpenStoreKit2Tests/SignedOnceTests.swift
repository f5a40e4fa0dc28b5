import Foundation
import OpenStoreKit
import OpenStoreKit2
import OpenStoreKitTest
import StoreSimulator
import Testing

@Suite("A purchase is signed once and verified once", .timeLimit(.minutes(1)))
struct SignedOnceTests {
    @Test("Every later view of a purchased transaction hands out the JWS of the purchase, not a new signature")
    func signedOnce() async throws {
        let store = SimulatedStore(lane: .manual)
        try await StoreKitEnvironment.withStore(store) {
            let purchase = try await product("com.example.pro").purchase()
            let jws = try #require(purchase.verification).jwsRepresentation
            #expect(await Transaction.latest(for: "com.example.pro")?.jwsRepresentation == jws)
            #expect(await collect(Transaction.unfinished).map(\.jwsRepresentation) == [jws])
            #expect(await collect(Transaction.all).map(\.jwsRepresentation) == [jws])
            try await purchased(purchase).finish()
            #expect(await collect(Transaction.currentEntitlements).map(\.jwsRepresentation) == [jws])
        }
    }

    @Test(
        "A verified purchase shows exactly what its JWS says, field for field",
        arguments: ["com.example.coins100", "com.example.premium.monthly"])
    func verifiedShowsTheJWS(productID: String) async throws {
        let store = SimulatedStore(lane: .manual)
        let session = SKTestSession(store: store)
        try await StoreKitEnvironment.withStore(store) {
            let purchase = try await product(productID).purchase(options: [.appAccountToken(UUID())])
            let verified = try purchased(purchase)
            // A failed verification makes the value from what the JWS says, decoded; the JWS is the same one.
            try await session.setSimulatedError(.verification(.invalidSignature), forAPI: .verification)
            let latest = try #require(await Transaction.latest(for: productID))
            guard case .unverified(let decoded, _) = latest else {
                Issue.record("expected an unverified transaction, got \(latest)")
                return
            }
            #expect(decoded.signed == verified.signed)
            let fields = Mirror(reflecting: verified).children.map { "\($0.label ?? "?") = \($0.value)" }
            #expect(fields == Mirror(reflecting: decoded).children.map { "\($0.label ?? "?") = \($0.value)" })
            #expect(fields.count > 25)
        }
    }

    @Test("Tampering turned on and off hands out a spoiled JWS only while it is on, and the honest one after")
    func tamperingAcrossChanges() async throws {
        let store = SimulatedStore(lane: .manual)
        try await StoreKitEnvironment.withStore(store) {
            let honest = try #require(try await product("com.example.pro").purchase().verification)
            guard case .verified = honest else {
                Issue.record("expected a verified purchase, got \(honest)")
                return
            }
            let expected: [(JWSTampering, VerificationResult<Transaction>.VerificationError)] = [
                (.signature, .invalidSignature), (.payload, .invalidSignature), (.wrongRoot, .invalidCertificateChain),
            ]
            for (tampering, error) in expected {
                store.jwsTampering = tampering
                let spoiled = try #require(await Transaction.latest(for: "com.example.pro"))
                guard case .unverified(_, let found) = spoiled else {
                    Issue.record("\(tampering): expected an unverified transaction, got \(spoiled)")
                    continue
                }
                #expect(found == error, "\(tampering)")
                #expect(spoiled.jwsRepresentation != honest.jwsRepresentation, "\(tampering)")
                store.jwsTampering = .none
                let again = try #require(await Transaction.latest(for: "com.example.pro"))
                guard case .verified = again else {
                    Issue.record("after \(tampering): expected a verified transaction, got \(again)")
                    continue
                }
                #expect(again.jwsRepresentation == honest.jwsRepresentation, "after \(tampering): the honest JWS")
            }
        }
    }

    @Test("A consumable that StoreKit 1 finished before StoreKit 2 read it, its record dropped, is still the purchase")
    func finishedByStoreKit1First() async throws {
        let store = SimulatedStore(lane: .manual, retention: .receiptOnly)
        let queue = SKPaymentQueue(store: store)
        let finisher = Finisher()
        queue.add(finisher)
        try await StoreKitEnvironment.withStore(store) {
            let transaction = try purchased(try await product("com.example.coins100").purchase())
            #expect(transaction.productID == "com.example.coins100")
            #expect(finisher.finished == 1)
            #expect(store.transaction(transaction.id) == nil, "finished by StoreKit 1: the record is dropped")
        }
    }
}

/// A StoreKit 1 observer that finishes every purchased transaction as soon as it hears of it.
private final class Finisher: NSObject, SKPaymentTransactionObserver, @unchecked Sendable {
    // @unchecked: called on the store's manual lane, which the test runs on its own task.
    private(set) var finished = 0

    func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
        for transaction in transactions where transaction.transactionState == .purchased {
            queue.finishTransaction(transaction)
            finished += 1
        }
    }
}
