import Foundation
import Ledger
import ReceiptKit
import StoreModels
import TestSupport
import Testing

@testable import StoreSimulator

/// Prorated refunds (`revocationType`, `revocationPercentage`), Send Consumption Information V1 as the store keeps it,
/// and what Get Transaction History v1 and v2 list of consumables.
@Suite("Prorated refunds, V1 consumption information and the history views")
struct ProratedRefundTests {
    static let pro = "com.example.pro"
    static let coins = "com.example.coins100"

    /// The payload of the store's signed transaction, decoded from the JWS as a backend decodes it.
    static func payload(_ store: SimulatedStore, _ id: UInt64) throws -> JWSTransaction {
        let parts = try store.signedTransaction(id).split(separator: ".")
        try #require(parts.count == 3)
        var text = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        return try JSONDecoder().decode(JWSTransaction.self, from: try #require(Data(base64Encoded: text)))
    }

    static let version1 = ConsumptionInformationV1(
        consumptionStatus: 2, platform: 1, sampleContentProvided: false, deliveryStatus: 4,
        appAccountToken: UUID(uuidString: "7E3FB20B-4CDB-47CC-936D-99D65F608138"), accountTenure: 7, playTime: 3,
        lifetimeDollarsRefunded: 1, lifetimeDollarsPurchased: 5, userStatus: 1, refundPreference: 1)

    @Test("A prorated refund revokes as a full one does; each says its type and share until it is reversed")
    func proratedAndFull() throws {
        let store = SimulatedStore(lane: .manual)
        let pro = try store.buyProduct(Self.pro)
        let coins = try store.buyProduct(Self.coins)
        let refunded = try store.refund(pro.id, reason: .developerIssue, percentage: 50_000)
        try store.refund(coins.id)
        #expect(refunded.revocationPercentage == 50_000)
        #expect(!refunded.isOwned, "a prorated refund revokes the purchase")
        #expect(!store.currentEntitlements().contains { $0.productID == Self.pro }, "access ends")
        let prorated = try Self.payload(store, pro.id)
        #expect(prorated.revocationType == .refundProrated)
        #expect(prorated.revocationPercentage == 50_000)
        #expect(prorated.revocationReason == .developerIssue)
        let full = try Self.payload(store, coins.id)
        #expect(full.revocationType == .refundFull)
        #expect(full.revocationPercentage == 100_000)
        #expect(store.transaction(coins.id)?.revocationPercentage == nil)

        try store.reverseRefund(transactionID: pro.id)
        let reversed = try Self.payload(store, pro.id)
        #expect(
            reversed.revocationType == nil && reversed.revocationPercentage == nil && reversed.revocationDate == nil)
        #expect(store.transaction(pro.id)?.revocationPercentage == nil)
    }

    @Test("A share outside 1...100000 is refused and nothing changes", arguments: [0, -1, 100_001])
    func badShare(percentage: Int) throws {
        let store = SimulatedStore(lane: .manual)
        let pro = try store.buyProduct(Self.pro)
        let error = #expect(throws: StoreSimulatorError.self) {
            try store.refund(pro.id, percentage: percentage)
        }
        #expect(error?.code == .invalidAction)
        #expect(error?.detail.contains("\(percentage)") == true)
        #expect(store.transaction(pro.id)?.cancellationDate == nil)
    }

    @Test("A full refund's journal entry is written as before prorated refunds; a prorated one adds its share")
    func journalEntries() throws {
        let time = Date(timeIntervalSince1970: 1_800_000_000)
        var full = JournalWriter()
        StoreCommand.operation(.refund(7, reason: .developerIssue)).encode(at: time, into: &full)
        var prorated = JournalWriter()
        StoreCommand.operation(.refund(7, reason: .developerIssue, percentage: 33_333)).encode(
            at: time, into: &prorated)
        #expect(Array(prorated.bytes.prefix(full.bytes.count)) == full.bytes, "the share follows the old layout")
        #expect(prorated.bytes.count > full.bytes.count)
        guard case .operation(.refund(7, .developerIssue, nil)) = try StoreCommand.decode(full.bytes).command else {
            Issue.record("a full refund entry reads as a full refund")
            return
        }
        guard case .operation(.refund(7, .developerIssue, 33_333)) = try StoreCommand.decode(prorated.bytes).command
        else {
            Issue.record("a prorated refund entry keeps its share")
            return
        }
        var bad = JournalWriter()
        StoreCommand.operation(.refund(7, reason: .other)).encode(at: time, into: &bad)
        bad.int(100_001)
        #expect(throws: JournalReader.Failure.self) { try StoreCommand.decode(bad.bytes) }
    }

    @Test(
        "A durable store keeps a prorated refund and V1 consumption information through a reopen, from its journal and from its compacted tables",
        arguments: [false, true])
    func durable(compacted: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let durable = try SimulatedStore(statePath: path, durability: StoreDurability(compactEvery: nil), lane: .manual)
        let pro = try durable.buyProduct(Self.pro)
        let coins = try durable.buyProduct(Self.coins)
        try durable.refund(pro.id, percentage: 25_500)
        try durable.setConsumptionInformation(ConsumptionInformation(Self.version1), forTransaction: coins.id)
        let before = try Self.payload(durable, pro.id)
        if compacted {
            try durable.compact()
            let journal = try #require(durable.ledger).read { txn in try txn.logCount(in: StoreJournal.logName) }
            #expect(journal == 0, "the tables hold everything")
        }
        try durable.close()

        let reopened = try SimulatedStore(statePath: path, lane: .manual)
        #expect(reopened.transaction(pro.id)?.revocationPercentage == 25_500)
        let after = try Self.payload(reopened, pro.id)
        #expect(after.revocationType == .refundProrated && after.revocationPercentage == 25_500)
        #expect(after.revocationDate == before.revocationDate)
        #expect(reopened.consumptionInformation(forTransaction: coins.id)?.version1 == Self.version1)
        try reopened.close()
    }

    @Test("V1 consumption information is kept with the version 2 fields it maps to, for consumables and subscriptions")
    func consumptionVersion1() throws {
        let store = SimulatedStore(lane: .manual)
        let coins = try store.buyProduct(Self.coins)
        let pro = try store.buyProduct(Self.pro)
        try store.setConsumptionInformation(ConsumptionInformation(Self.version1), forTransaction: coins.id)
        let kept = try #require(store.consumptionInformation(forTransaction: coins.id))
        #expect(kept.version1 == Self.version1)
        #expect(kept.deliveryStatus == .undeliveredOther, "4, an in-game currency change")
        #expect(kept.refundPreference == .grantFull, "1, prefer grant")
        #expect(kept.sampleContentProvided == false && kept.consumptionPercentage == nil)
        let refused = #expect(throws: StoreSimulatorError.self) {
            try store.setConsumptionInformation(ConsumptionInformation(Self.version1), forTransaction: pro.id)
        }
        #expect(refused?.code == .invalidProductType)
        var outOfRange = Self.version1
        outOfRange.playTime = 8
        #expect(outOfRange.invalidField == "playTime")
        #expect(throws: StoreSimulatorError.self) {
            try store.setConsumptionInformation(ConsumptionInformation(outOfRange), forTransaction: coins.id)
        }
        #expect(store.consumptionInformation(forTransaction: coins.id)?.version1 == Self.version1)
    }

    @Test("History v2 lists finished consumables; v1 lists a consumable only while a device holds it unfinished")
    func historyViews() throws {
        let store = SimulatedStore(lane: .manual)
        let (phone, listener) = store.silentConnection("phone")
        let coins = phone.submit(PaymentRequest(productID: Self.coins))
        let pro = phone.submit(PaymentRequest(productID: Self.pro))
        store.runUntilIdle()
        func listed(_ view: TransactionHistoryView) -> [UInt64] {
            store.transactionHistory(view: view).map(\.id)
        }
        #expect(listed(.serverVersion1) == [coins, pro], "unfinished: the app has not finished it")
        #expect(listed(.serverVersion2) == [coins, pro])
        phone.finish(coins)
        phone.finish(pro)
        store.runUntilIdle()
        #expect(listed(.serverVersion1) == [pro], "a finished consumable leaves v1")
        #expect(listed(.serverVersion2) == [coins, pro], "and stays in v2")
        let customer = try #require(store.customer(ofTransaction: coins, including: .history))
        #expect(customer.transactionHistory(view: .serverVersion1).map(\.id) == [pro])
        #expect(customer.transactionHistory(view: .serverVersion2).map(\.id) == [coins, pro])
        try store.refund(coins)
        #expect(listed(.serverVersion1) == [coins, pro], "a refunded consumable is in v1 again")
        withExtendedLifetime(listener) {}
    }
}
