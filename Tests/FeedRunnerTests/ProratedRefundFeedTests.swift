import FeedRunner
import Foundation
import ReceiptKit
import StoreModels
import StoreSimulator
import Testing

@Suite("Prorated refunds in feeds")
struct ProratedRefundFeedTests {
    @Test("refund REF prorated 50% revokes the purchase and signs REFUND_PRORATED with the share")
    func prorated() throws {
        let path = FileManager.default.temporaryDirectory.path + "/prorated-" + UUID().uuidString + ".sqlite"
        defer {
            for suffix in ["", "-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let result = try FeedRun.run(
            """
            buy com.example.pro as pro
            buy com.example.coins100 as coins
            refund pro prorated 33.5%
            refund coins
            expect phase com.example.pro revoked
            expect receipt pro cancellation_date 2026-01-01
            """, file: "prorated.feed", statePath: path)
        #expect(result.passed, "\(result.failure?.description ?? "")")
        let store = try SimulatedStore(statePath: path, lane: .manual)
        defer { try? store.close() }
        let records = store.allTransactions()
        let pro = try #require(records.first { $0.productID == "com.example.pro" })
        let coins = try #require(records.first { $0.productID == "com.example.coins100" })
        #expect(pro.revocationPercentage == 33_500)
        #expect(coins.revocationPercentage == nil, "a full refund")
        #expect(try store.signedTransactionValue(pro.id).payload.revocationType == .refundProrated)
        #expect(try store.signedTransactionValue(coins.id).payload.revocationType == .refundFull)
    }

    @Test(
        "a prorated refund's share is a percentage from 0.001% to 100% with three decimals at most, refused at its column",
        arguments: ["0%", "100.001%", "50", "50.1234%", "+5%", "5.%", "%", "half"])
    func badShare(share: String) {
        do {
            _ = try FeedRun.run("buy com.example.pro as pro\nrefund pro prorated \(share)", file: "prorated.feed")
            Issue.record("\(share) was accepted")
        } catch {
            #expect(error.code == .invalidValue, "\(error)")
            #expect(error.line == 2)
            #expect(error.column == 21)
        }
    }

    @Test("a word other than prorated after the transaction is refused")
    func unknownWord() {
        do {
            _ = try FeedRun.run("buy com.example.pro as pro\nrefund pro partly 50%", file: "prorated.feed")
            Issue.record("an unknown word was accepted")
        } catch {
            #expect(error.code == .wrongArguments, "\(error)")
            #expect(error.column == 12)
        }
    }
}
