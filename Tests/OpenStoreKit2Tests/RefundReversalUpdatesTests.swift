import Foundation
import OpenStoreKit
import OpenStoreKit2
import OpenStoreKitTest
import StoreModels
import StoreSimulator
import TestSupport
import Testing

@Suite("Transaction.updates of a reversed refund", .timeLimit(.minutes(1)))
struct RefundReversalUpdatesTests {
    @Test("A reversed refund arrives as the same transaction again, without its revocation, and entitles again")
    func reversal() async throws {
        let store = SimulatedStore(lane: .manual)
        try await StoreKitEnvironment.withStore(store) {
            let tap = UpdatesTap()
            let pro = try purchased(try await product("com.example.pro").purchase())
            await pro.finish()
            try store.refund(pro.id)
            store.runUntilIdle()
            #expect(try await tap.next().payloadValue.revocationDate != nil)
            #expect(await collect(Transaction.currentEntitlements).isEmpty)

            try store.reverseRefund(transactionID: pro.id)
            store.runUntilIdle()
            let reinstated = try await tap.next().payloadValue
            #expect(reinstated.id == pro.id)
            #expect(reinstated.revocationDate == nil)
            #expect(reinstated.revocationReason == nil)
            #expect(await collect(Transaction.currentEntitlements).map(\.unsafePayloadValue.id) == [pro.id])

            // A second refund of it is told again.
            try store.refund(pro.id)
            store.runUntilIdle()
            let again = try await tap.next().payloadValue
            #expect(again.id == pro.id)
            #expect(again.revocationDate != nil)
            tap.stop()
        }
    }
}
