import Foundation
import StoreModels
import TestSupport
import Testing

@testable import StoreSimulator

private let monthly = "com.example.premium.monthly"
private let pro = "com.example.pro"
private let coins = "com.example.coins100"

/// The name of an operation's case: an exhaustive switch, so a new case cannot be added without this test hearing of it.
private func caseName(_ operation: StoreOperation) -> String {
    switch operation {
    case .buyProduct: "buyProduct"
    case .buyProductForTesting: "buyProductForTesting"
    case .approveAskToBuy: "approveAskToBuy"
    case .declineAskToBuy: "declineAskToBuy"
    case .refund: "refund"
    case .requestRefund: "requestRefund"
    case .declineRefund: "declineRefund"
    case .reverseRefund: "reverseRefund"
    case .deleteTransaction: "deleteTransaction"
    case .clearTransactions: "clearTransactions"
    case .resolveIssue: "resolveIssue"
    case .expireSubscription: "expireSubscription"
    case .forceRenewal: "forceRenewal"
    case .setAutoRenew: "setAutoRenew"
    case .requestPriceIncreaseConsent: "requestPriceIncreaseConsent"
    case .consentToPriceIncrease: "consentToPriceIncrease"
    case .declinePriceIncrease: "declinePriceIncrease"
    case .showPriceConsent: "showPriceConsent"
    case .advance: "advance"
    case .extendRenewalDate: "extendRenewalDate"
    case .joinFamily: "joinFamily"
    case .leaveFamily: "leaveFamily"
    case .updateSettings: "updateSettings"
    case .updateAccountSettings: "updateAccountSettings"
    case .reconfigure: "reconfigure"
    case .script: "script"
    case .setHistoryRetention: "setHistoryRetention"
    case .setReceiptExpired: "setReceiptExpired"
    case .extendRenewalDates: "extendRenewalDates"
    case .setConsumptionInformation: "setConsumptionInformation"
    case .setAppAccountToken: "setAppAccountToken"
    case .finishTransaction: "finishTransaction"
    case .retentionMessaging: "retentionMessaging"
    }
}

/// The number of cases ``caseName(_:)`` knows.
private let operationCount = 33

/// Applies a workload that makes every kind of operation through ``SimulatedStore/perform(_:reporting:)``, the same
/// on every store it is given, and returns the names of the operations it made.
private struct EveryOperation {
    var made: Set<String> = []
    var outcomes: [StoreOperation.Outcome] = []

    mutating func perform(_ operation: StoreOperation, on stores: [SimulatedStore]) throws {
        var seen: [StoreOperation.Outcome] = []
        for store in stores {
            seen.append(try store.perform(operation))
            store.runUntilIdle()
        }
        #expect(Set(seen).count == 1, "\(operation): every store answers alike")
        made.insert(caseName(operation))
        outcomes.append(seen[0])
    }

    mutating func transaction(_ operation: StoreOperation, on stores: [SimulatedStore]) throws -> TransactionRecord {
        try perform(operation, on: stores)
        return try #require(outcomes.last?.transaction, "\(operation) returns its transaction")
    }

    mutating func run(on stores: [SimulatedStore], devices: [DeviceConnection]) throws {
        var settings = StoreSettings()
        settings.billingRetryOnRenewal = true
        try perform(.updateSettings(settings), on: stores)
        var account = AccountSettings()
        account.askToBuyEnabled = true
        try perform(.updateAccountSettings(account: "kid", account), on: stores)
        try perform(.setHistoryRetention(.all), on: stores)

        let subscription = try transaction(.buyProduct(productID: monthly, account: "alice"), on: stores)
        let owned = try transaction(.buyProduct(productID: pro, account: "alice"), on: stores)
        let consumable = try transaction(.buyProduct(productID: coins, quantity: 3, account: "alice"), on: stores)
        let dated = try transaction(
            .buyProductForTesting(
                productID: coins, account: "alice",
                options: TestPurchaseOptions(purchaseDate: stores[0].now.addingTimeInterval(-3_600))),
            on: stores)
        #expect(dated.purchaseDate == stores[0].now.addingTimeInterval(-3_600))
        let planned = try transaction(
            .buyProductForTesting(
                productID: "com.example.premium.yearly", account: "bob",
                options: TestPurchaseOptions(billingPlan: .upFront)),
            on: stores)
        #expect(planned.billingPlan == .upFront)
        try perform(.setAutoRenew(false, transactionID: subscription.id), on: stores)
        try perform(.setAutoRenew(true, transactionID: subscription.id), on: stores)
        try perform(.requestPriceIncreaseConsent(subscription.id), on: stores)
        try perform(.showPriceConsent(account: "alice"), on: stores)
        try perform(.consentToPriceIncrease(subscription.id), on: stores)
        try perform(.requestPriceIncreaseConsent(subscription.id), on: stores)
        try perform(.declinePriceIncrease(subscription.id), on: stores)
        try perform(.setAutoRenew(true, transactionID: subscription.id), on: stores)
        try perform(.extendRenewalDate(originalID: subscription.originalID, by: 86_400), on: stores)
        try perform(.advance(to: stores[0].now.addingTimeInterval(40 * 86_400)), on: stores)
        try perform(.forceRenewal(productID: monthly, account: "alice"), on: stores)
        try perform(.expireSubscription(productID: monthly, account: "alice"), on: stores)

        try perform(
            .extendRenewalDates(
                productID: monthly, by: 3_600, requestIdentifier: "r-1", storefrontCountryCodes: ["USA"]),
            on: stores)
        try perform(
            .setConsumptionInformation(
                ConsumptionInformation(
                    sampleContentProvided: true, deliveryStatus: .delivered, consumptionPercentage: 50_000,
                    refundPreference: .decline),
                transactionID: consumable.id),
            on: stores)
        try perform(
            .setAppAccountToken(
                UUID(uuidString: "6B29FC40-CA47-1067-B31D-00DD010662DA")!,
                originalTransactionID: subscription.originalID),
            on: stores)
        try perform(
            .setAppAccountToken(
                UUID(uuidString: "1D5A2C00-0000-4000-8000-000000000001")!, originalTransactionID: owned.id),
            on: stores)
        try perform(.finishTransaction(consumable.id), on: stores)
        let image = UUID(uuidString: "A1A1A1A1-0000-4000-8000-000000000001")!
        let message = UUID(uuidString: "B2B2B2B2-0000-4000-8000-000000000001")!
        for change: RetentionMessagingChange in [
            .uploadImage(image, size: .fullSize),
            .uploadMessage(
                RetentionMessaging.Message(
                    identifier: message, header: "Stay", body: "Please.",
                    image: RetentionMessaging.ImageReference(imageIdentifier: image, altText: "The app"))),
            .setDefaultMessage(productID: monthly, locale: "en-US", messageIdentifier: message),
            .setRealtimeURL("http://127.0.0.1:9/retention"),
            .openCancellationFlow(
                originalTransactionID: subscription.originalID, locale: "en-US",
                requestIdentifier: UUID(uuidString: "C3C3C3C3-0000-4000-8000-000000000001")!, choice: nil,
                failure: "TIMED_OUT"),
        ] {
            try perform(.retentionMessaging(change), on: stores)
        }
        try perform(.refund(owned.id, reason: .developerIssue), on: stores)
        try perform(.reverseRefund(owned.id), on: stores)
        try perform(.requestRefund(consumable.id, reason: .other), on: stores)
        try perform(.declineRefund(consumable.id), on: stores)
        try perform(.deleteTransaction(consumable.id), on: stores)

        try perform(.joinFamily("smiths", accounts: ["alice", "bob"]), on: stores)
        try perform(.leaveFamily(account: "bob"), on: stores)
        try perform(.joinFamily("smiths", accounts: ["bob"]), on: stores)

        // Through the kid's device: an Ask to Buy request approved, one declined, and an interrupted purchase resolved.
        for askToBuy in [true, false] {
            let ids = devices.map { $0.submitNow(PaymentRequest(productID: coins, simulatesAskToBuy: true)).id }
            #expect(Set(ids).count == 1)
            for (device, store) in zip(devices, stores) {
                device.processNow(ids[0])
                store.runUntilIdle()
            }
            try perform(askToBuy ? .approveAskToBuy(ids[0]) : .declineAskToBuy(ids[0]), on: stores)
        }
        try perform(.script(.interrupt, productID: pro), on: stores)
        let interrupted = devices.map { $0.submitNow(PaymentRequest(productID: pro)).id }
        for (device, store) in zip(devices, stores) {
            device.processNow(interrupted[0])
            store.runUntilIdle()
        }
        try perform(.resolveIssue(interrupted[0]), on: stores)
        try perform(.setReceiptExpired(true, deviceID: "kid-phone"), on: stores)
        try perform(.reconfigure(.demo), on: stores)
    }
}

@Suite("Store operations: one entry point, journaled and replayed")
struct StoreOperationTests {
    @Test("Every operation, performed on a durable store, is in its journal: reopened, the store is the one in memory")
    func everyOperationIsJournaledAndReplayed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let memory = SimulatedStore(lane: .manual)
        let durable = try SimulatedStore(statePath: path, lane: .manual)
        let (memoryDevice, memoryListener) = memory.silentConnection("kid-phone", account: "kid")
        let (durableDevice, durableListener) = durable.silentConnection("kid-phone", account: "kid")
        var workload = EveryOperation()
        try workload.run(on: [memory, durable], devices: [memoryDevice, durableDevice])
        #expect(workload.made.count == operationCount - 1, "every operation but clearing: \(workload.made.sorted())")
        try durable.close()

        let reopened = try SimulatedStore(statePath: path, lane: .manual)
        #expect(reopened.now == memory.now)
        #expect(reopened.allTransactions() == memory.allTransactions())
        for account in ["alice", "bob", "kid"] {
            #expect(reopened.subscriptions(of: account) == memory.subscriptions(of: account))
            #expect(reopened.family(of: account) == memory.family(of: account))
            #expect(reopened.accountSettings(account) == memory.accountSettings(account))
        }
        #expect(reopened.settings == memory.settings)
        #expect(reopened.historyRetention == memory.historyRetention)
        #expect(reopened.massRenewalExtension(productID: monthly, requestIdentifier: "r-1") != nil)
        for id in memory.allTransactions().map(\.id) {
            #expect(
                reopened.consumptionInformation(forTransaction: id) == memory.consumptionInformation(forTransaction: id)
            )
        }
        #expect(
            reopened.massRenewalExtension(productID: monthly, requestIdentifier: "r-1")
                == memory.massRenewalExtension(productID: monthly, requestIdentifier: "r-1"))
        #expect(
            reopened.unfinishedTransactions(deviceID: "kid-phone")
                == memory.unfinishedTransactions(deviceID: "kid-phone"))
        #expect(reopened.retentionMessaging == memory.retentionMessaging)
        #expect(reopened.retentionMessaging.shown.map(\.source) == [.defaultMessage])

        // The last one, on both, and once more after reopening.
        try workload.perform(.clearTransactions, on: [memory, reopened])
        #expect(workload.made.count == operationCount)
        try reopened.close()
        let cleared = try SimulatedStore(statePath: path, lane: .manual)
        #expect(cleared.allTransactions().isEmpty)
        #expect(cleared.allTransactions() == memory.allTransactions())
        try cleared.close()
        withExtendedLifetime((memoryListener, durableListener)) {}
    }

    @Test(
        "An operation returns what the store's method of the same name returns, and fails as it does, changing nothing")
    func outcomesAreTheMethods() throws {
        let byMethod = SimulatedStore(lane: .manual)
        let byOperation = SimulatedStore(lane: .manual)
        let bought = try byMethod.buyProduct(monthly, account: "alice")
        #expect(try byOperation.perform(.buyProduct(productID: monthly, account: "alice")) == .transaction(bought))
        let target = byMethod.now.addingTimeInterval(70 * 86_400)
        let events = try byMethod.advance(to: target)
        var reported: [SubscriptionEvent] = []
        let outcome = try byOperation.perform(.advance(to: target)) { reported += $0 }
        #expect(outcome == .subscriptionEvents(events))
        #expect(reported == events)
        #expect(!events.isEmpty)

        #expect(throws: StoreSimulatorError(.unknownTransaction, "")) {
            try byOperation.perform(.refund(999))
        }
        #expect(byOperation.allTransactions() == byMethod.allTransactions())
        #expect(throws: StoreSimulatorError(.invalidAction, "")) {
            try byOperation.perform(.joinFamily("smiths", accounts: []))
        }
        #expect(byOperation.family(of: "alice") == nil)
    }

    @Test("Every operation's journal entry reads back as the operation written, at the time written")
    func journalEntriesRoundTrip() throws {
        let time = ManualClock.defaultStart.addingTimeInterval(12.5)
        var settings = StoreSettings()
        settings.storefront = Storefront(countryCode: "FRA")
        let operations: [StoreOperation] = [
            .buyProduct(productID: pro, quantity: 4, account: "alice", applicationUsername: "u-1"),
            .approveAskToBuy(1), .declineAskToBuy(2), .refund(3, reason: .developerIssue),
            .requestRefund(4, reason: .other), .declineRefund(5), .reverseRefund(6), .deleteTransaction(7),
            .clearTransactions, .resolveIssue(8), .expireSubscription(productID: monthly, account: "bob"),
            .forceRenewal(productID: monthly, account: "carol"), .setAutoRenew(false, transactionID: 9),
            .requestPriceIncreaseConsent(10), .consentToPriceIncrease(11), .declinePriceIncrease(12),
            .showPriceConsent(account: "dan"), .advance(to: time.addingTimeInterval(86_400)),
            .extendRenewalDate(originalID: 13, by: 3_600), .joinFamily("smiths", accounts: ["alice"]),
            .joinFamily("jones", accounts: ["bob", "carol", "dan"]), .leaveFamily(account: "erin"),
            .updateSettings(settings), .updateAccountSettings(account: "kid", AccountSettings(paymentsAllowed: false)),
            .reconfigure(.demo), .script(.fail(StoreFailure(.paymentInvalid, "scripted")), productID: pro),
            .script(.askToBuy), .setHistoryRetention(.receiptOnly), .setReceiptExpired(true, deviceID: "phone"),
            .extendRenewalDates(productID: monthly, by: 86_400, requestIdentifier: "r", storefrontCountryCodes: nil),
            .extendRenewalDates(
                productID: monthly, by: 60, requestIdentifier: "s", storefrontCountryCodes: ["FRA", "USA"]),
            .setConsumptionInformation(
                ConsumptionInformation(
                    customerConsented: false, sampleContentProvided: false, deliveryStatus: .undeliveredOther),
                transactionID: 14),
            .setAppAccountToken(UUID(uuidString: "6B29FC40-CA47-1067-B31D-00DD010662DA")!, originalTransactionID: 15),
            .finishTransaction(16),
            .retentionMessaging(
                .openCancellationFlow(
                    originalTransactionID: 17, locale: "en-US",
                    requestIdentifier: UUID(uuidString: "C3C3C3C3-0000-4000-8000-000000000001")!,
                    choice: .alternateProduct(
                        messageIdentifier: UUID(uuidString: "B2B2B2B2-0000-4000-8000-000000000001")!,
                        productID: monthly),
                    failure: nil)),
            .retentionMessaging(.setRealtimeURL(nil)),
            .buyProductForTesting(
                productID: monthly, quantity: 2, account: "alice", applicationUsername: "u-2",
                options: TestPurchaseOptions(
                    purchaseDate: time.addingTimeInterval(-86_400), renewsUntilNow: false, promotionalOfferID: "p")),
            .buyProductForTesting(productID: monthly, options: TestPurchaseOptions(offerCodeReferenceName: "CODE")),
            .buyProductForTesting(productID: monthly, options: TestPurchaseOptions(billingPlan: .monthly)),
            .buyProductForTesting(
                productID: monthly,
                options: TestPurchaseOptions(purchaseDate: time.addingTimeInterval(-60), billingPlan: .upFront)),
        ]
        #expect(Set(operations.map(caseName)).count == operationCount)
        for operation in operations {
            var writer = JournalWriter()
            StoreCommand.operation(operation).encode(at: time, into: &writer)
            let decoded = try StoreCommand.decode(writer.bytes)
            #expect(decoded.time == time)
            guard case .operation(let read) = decoded.command else {
                Issue.record("\(operation) read back as \(decoded.command)")
                continue
            }
            #expect(read == operation)
        }
    }

    @Test("A journal entry that puts fewer than two accounts, or more than it holds, in a family is refused")
    func hostileFamilyEntriesAreRefused() throws {
        var writer = JournalWriter()
        StoreCommand.operation(.joinFamily("smiths", accounts: ["a", "b"])).encode(
            at: ManualClock.defaultStart, into: &writer)
        let good = writer.bytes
        #expect(good[0] == 36)
        let countOffset = 1 + 8 + 4 + "smiths".utf8.count  // tag, time, the family's length and bytes
        for count in [Int64(1), 0, -1, 3, Int64.max] {
            var bytes = good
            withUnsafeBytes(of: count.littleEndian) { bytes.replaceSubrange(countOffset..<countOffset + 8, with: $0) }
            #expect(throws: JournalReader.Failure.self, "\(count) accounts") { try StoreCommand.decode(bytes) }
        }
    }

    @Test("Putting several accounts in a family is all or none, and one entry of the journal")
    func joiningSeveralAccountsIsOneChange() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let store = try SimulatedStore(statePath: path, lane: .manual)
        try store.perform(.joinFamily("jones", accounts: ["carol"]))
        #expect(throws: StoreSimulatorError(.invalidAction, "")) {
            try store.perform(.joinFamily("smiths", accounts: ["alice", "carol"]))
        }
        #expect(store.family(of: "alice") == nil, "nobody joined")
        try store.perform(.joinFamily("smiths", accounts: ["alice", "bob"]))
        #expect(store.familyMembers("smiths") == ["alice", "bob"])
        try store.close()
        let reopened = try SimulatedStore(statePath: path, lane: .manual)
        #expect(reopened.familyMembers("smiths") == ["alice", "bob"])
        #expect(reopened.familyMembers("jones") == ["carol"])
        try reopened.close()
    }
}
