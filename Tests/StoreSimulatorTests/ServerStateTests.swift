import Foundation
import Ledger
import StoreModels
import TestSupport
import Testing

@testable import StoreSimulator

/// What the App Store Server API sends the store and reads back later: consumption information and mass renewal-date
/// extensions, kept by the store like any other change, journaled, replayed and compacted.
@Suite("Consumption information and mass extensions")
struct ServerStateTests {
    static let monthly = "com.example.premium.monthly"
    static let threeDays: TimeInterval = 3 * 86_400
    static let information = ConsumptionInformation(
        sampleContentProvided: true, deliveryStatus: .undeliveredQualityIssue, consumptionPercentage: 12_500,
        refundPreference: .grantProrated)

    /// Buys a consumable and, for two accounts, the monthly subscription; puts the second one in billing retry.
    static func populate(_ store: SimulatedStore) throws -> (coins: UInt64, active: UInt64, retrying: UInt64) {
        let coins = try store.buyProduct("com.example.coins100").id
        let active = try store.buyProduct(Self.monthly, account: "active").originalID
        store.updateSettings { $0.billingRetryOnRenewal = true }
        let retrying = try store.buyProduct(Self.monthly, account: "retrying").originalID
        try store.advance(by: 8 * 86_400)  // both fail to renew when the trial ends
        store.updateSettings { $0.billingRetryOnRenewal = false }
        _ = try store.resolveIssue(try #require(store.subscriptions(of: "active").first?.latestRecordID))
        store.runUntilIdle()
        return (coins, active, retrying)
    }

    @Test("Consumption information is kept by transaction, replaced when sent again, and checked")
    func consumptionKept() throws {
        let store = SimulatedStore(lane: .manual)
        let ids = try Self.populate(store)
        #expect(store.consumptionInformation(forTransaction: ids.coins) == nil)
        try store.setConsumptionInformation(Self.information, forTransaction: ids.coins)
        #expect(store.consumptionInformation(forTransaction: ids.coins) == Self.information)
        var replaced = Self.information
        replaced.consumptionPercentage = nil
        try store.setConsumptionInformation(replaced, forTransaction: ids.coins)
        #expect(store.consumptionInformation(forTransaction: ids.coins) == replaced)

        #expect(throws: StoreSimulatorError(.unknownTransaction, "")) {
            try store.setConsumptionInformation(replaced, forTransaction: 42)
        }
        #expect(throws: StoreSimulatorError(.invalidProductType, "")) {
            try store.setConsumptionInformation(Self.information, forTransaction: ids.active)
        }
        var tooMuch = Self.information
        tooMuch.consumptionPercentage = 100_001
        #expect(throws: StoreSimulatorError(.invalidAction, "")) {
            try store.setConsumptionInformation(tooMuch, forTransaction: ids.coins)
        }
        #expect(store.consumptionInformation(forTransaction: ids.coins) == replaced, "refusals change nothing")
    }

    @Test("A mass extension extends each active subscription, fails the others, and is done once per identifier")
    func massExtension() throws {
        let store = SimulatedStore(lane: .manual)
        let ids = try Self.populate(store)
        let active = try #require(store.subscriptions(of: "active").first)
        let retrying = try #require(store.subscriptions(of: "retrying").first)
        #expect(retrying.phase == .billingRetry)
        #expect(store.massRenewalExtension(productID: Self.monthly, requestIdentifier: "r1") == nil)

        let outcome = try store.extendRenewalDates(productID: Self.monthly, by: Self.threeDays, requestIdentifier: "r1")
        #expect(outcome.isNew)
        #expect(outcome.request.succeededCount == 1)
        #expect(outcome.request.failedCount == 1)
        #expect(outcome.request.completeDate == store.now)
        #expect(
            outcome.failures == [
                MassRenewalExtension.Failure(
                    originalID: ids.retrying, transactionID: retrying.latestRecordID, status: .billingRetry)
            ])
        #expect(store.subscriptions(of: "active").first?.expiresAt == active.expiresAt + Self.threeDays)
        #expect(store.subscriptions(of: "retrying").first == retrying)
        #expect(store.massRenewalExtension(productID: Self.monthly, requestIdentifier: "r1") == outcome.request)

        let again = try store.extendRenewalDates(productID: Self.monthly, by: 9 * 86_400, requestIdentifier: "r1")
        #expect(!again.isNew)
        #expect(again.request == outcome.request)
        #expect(store.subscriptions(of: "active").first?.expiresAt == active.expiresAt + Self.threeDays)

        let elsewhere = try store.extendRenewalDates(
            productID: Self.monthly, by: Self.threeDays, requestIdentifier: "r2", storefrontCountryCodes: ["FRA"])
        #expect(elsewhere.request.succeededCount == 0 && elsewhere.request.failedCount == 0)
        #expect(store.subscriptions(of: "active").first?.expiresAt == active.expiresAt + Self.threeDays)

        #expect(throws: StoreSimulatorError(.invalidProductType, "")) {
            try store.extendRenewalDates(productID: "com.example.coins100", by: 1, requestIdentifier: "r3")
        }
        #expect(throws: StoreSimulatorError(.unknownProduct, "")) {
            try store.extendRenewalDates(productID: "com.example.none", by: 1, requestIdentifier: "r3")
        }
        #expect(throws: StoreSimulatorError(.invalidAction, "")) {
            try store.extendRenewalDates(productID: Self.monthly, by: 1, requestIdentifier: "")
        }
        #expect(throws: StoreSimulatorError(.invalidAction, "")) {
            try store.extendRenewalDates(productID: Self.monthly, by: -1, requestIdentifier: "r3")
        }
    }

    @Test(
        "A durable store keeps both through a reopen from its journal and from its compacted tables",
        arguments: [false, true])
    func durable(compacted: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let memory = SimulatedStore(lane: .manual)
        let durable = try SimulatedStore(
            statePath: path, durability: StoreDurability(compactEvery: nil), lane: .manual)
        var outcome: MassRenewalExtension.Outcome?
        var coins: UInt64 = 0
        for store in [memory, durable] {
            coins = try Self.populate(store).coins
            try store.setConsumptionInformation(Self.information, forTransaction: coins)
            outcome = try store.extendRenewalDates(
                productID: Self.monthly, by: Self.threeDays, requestIdentifier: "spring",
                storefrontCountryCodes: ["USA", "GBR"])
        }
        let request = try #require(outcome?.request)
        if compacted {
            try durable.compact()
            let journal = try #require(durable.ledger).read { txn in try txn.logCount(in: StoreJournal.logName) }
            #expect(journal == 0, "the tables hold everything")
        }
        try durable.close()

        let reopened = try SimulatedStore(statePath: path, lane: .manual)
        #expect(reopened.consumptionInformation(forTransaction: coins) == Self.information)
        #expect(reopened.massRenewalExtension(productID: Self.monthly, requestIdentifier: "spring") == request)
        try expectSameState(memory, reopened)
        // Reused, the identifier still does nothing more after the reopen.
        let again = try reopened.extendRenewalDates(
            productID: Self.monthly, by: Self.threeDays, requestIdentifier: "spring")
        #expect(!again.isNew)
        try expectSameState(memory, reopened)
        try reopened.close()
    }

    @Test("Entries of a consumption or a mass extension with values out of range are refused, naming the entry")
    func badEntries() throws {
        var tooMuch = Self.information
        tooMuch.consumptionPercentage = 100_001
        let commands: [(StoreCommand, String)] = [
            (.operation(.setConsumptionInformation(tooMuch, transactionID: 1)), "consumption percentage 100001"),
            (
                .operation(
                    .extendRenewalDates(
                        productID: Self.monthly, by: -86_400, requestIdentifier: "r", storefrontCountryCodes: nil)),
                "not a positive time"
            ),
        ]
        for (command, words) in commands {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let path = directory.file("state.sqlite")
            try SimulatedStore(statePath: path, lane: .manual).close()
            var writer = JournalWriter()
            command.encode(at: ManualClock().now, into: &writer)
            #expect([34, 35].contains(writer.bytes[0]))
            let sequence = try LedgerDatabase(path: path).write { txn in
                try txn.appendLog(writer.bytes, to: StoreJournal.logName)
            }
            let error = try StateFileTests.expectRefused(.stateCorrupt, path, in: directory)
            #expect(error?.detail.contains("journal entry \(sequence)") == true, "\(error?.detail ?? "")")
            #expect(error?.detail.contains(words) == true, "\(error?.detail ?? "")")
        }
    }
}
