import Foundation
import Ledger
import ReceiptKit
import StoreModels
import Synchronization
import TestSupport
import Testing

@testable import StoreSimulator

private let monthly = "com.example.premium.monthly"
private let pro = "com.example.pro"

/// The demo catalog with its monthly subscription marked `familyShareable` (the demo's non-consumable already is).
private let familyCatalog = StoreConfiguration(
    catalog: StoreCatalog(
        products: StoreConfiguration.demo.catalog.products.map { product in
            guard product.id == monthly else { return product }
            return ProductDefinition(
                id: product.id, referenceName: product.referenceName, type: product.type, price: product.price,
                isFamilyShareable: true, localizations: product.localizations, subscription: product.subscription)
        }))

/// Keeps every change a store tells, in order.
private final class FamilyChanges: Sendable {
    private let changes = Mutex<[StoreChange]>([])

    init(_ store: SimulatedStore) {
        store.addChangeObserver { [self] change in changes.withLock { $0.append(change) } }
    }

    var all: [StoreChange] { changes.withLock { $0 } }
    /// `kind account product` of each change.
    var lines: [String] { all.map { "\($0.kindName) \($0.account) \($0.transaction.productID)" } }
}

@Suite("Family Sharing in the store")
struct FamilySharingTests {
    @Test("A shareable non-consumable bought by one member gives each other member a transaction of its own")
    func nonConsumableIsShared() throws {
        let store = SimulatedStore(configuration: familyCatalog, lane: .manual)
        try store.joinFamily("smiths", account: "alice")
        try store.joinFamily("smiths", account: "bob")
        try store.joinFamily("smiths", account: "carol")
        #expect(store.familyMembers("smiths") == ["alice", "bob", "carol"])
        #expect(store.family(of: "bob") == "smiths")
        let changes = FamilyChanges(store)
        #expect(!store.access(to: pro, account: "bob").hasAccess)

        let bought = try store.buyProduct(pro, account: "alice")
        _ = try store.buyProduct("com.example.coins100", account: "alice")  // consumables are never shared
        _ = try store.buyProduct("com.example.season", account: "alice")  // nor non-renewing subscriptions
        store.runUntilIdle()

        for member in ["bob", "carol"] {
            let records = store.transactions(of: member)
            try #require(records.count == 1, "\(member) has only the shared non-consumable")
            let shared = records[0]
            #expect(shared.isFamilyShared)
            #expect(shared.sharedFromID == bought.id)
            #expect(shared.id != bought.id)
            #expect(shared.originalID == shared.id)
            #expect(shared.productID == pro)
            #expect(shared.purchaseDate == bought.purchaseDate)
            #expect(store.access(to: pro, account: member).hasAccess)
            let signed = try store.signedTransactionValue(shared.id).payload
            #expect(signed.inAppOwnershipType == .familyShared)
            #expect(signed.revocationDate == nil)
        }
        #expect(try store.signedTransactionValue(bought.id).payload.inAppOwnershipType == .purchased)
        #expect(
            changes.lines == [
                "oneTimePurchase alice \(pro)", "oneTimePurchase bob \(pro)", "oneTimePurchase carol \(pro)",
                "oneTimePurchase alice com.example.coins100", "oneTimePurchase alice com.example.season",
            ])
    }

    @Test("Products not marked shareable, and accounts in no family or another family, get nothing")
    func onlyShareableWithinTheFamily() throws {
        let store = SimulatedStore(lane: .manual)  // the demo's subscriptions are not shareable
        try store.joinFamily("smiths", account: "alice")
        try store.joinFamily("smiths", account: "bob")
        try store.joinFamily("joneses", account: "dave")
        _ = try store.buyProduct(monthly, account: "alice")
        _ = try store.buyProduct(pro, account: "alice")
        #expect(store.transactions(of: "bob").map(\.productID) == [pro])
        #expect(store.transactions(of: "dave").isEmpty)
        #expect(store.transactions(of: SimulatedStore.defaultAccount).isEmpty)
    }

    @Test("Joining a second family, an empty family name, or leaving no family is refused and changes nothing")
    func refusedChanges() throws {
        let store = SimulatedStore(lane: .manual)
        try store.joinFamily("smiths", account: "alice")
        try store.joinFamily("smiths", account: "alice")  // already in it: nothing
        let second = #expect(throws: StoreSimulatorError.self) { try store.joinFamily("joneses", account: "alice") }
        #expect(second?.code == .invalidAction)
        #expect(second?.detail.contains("smiths") == true)
        #expect(store.family(of: "alice") == "smiths")
        let empty = #expect(throws: StoreSimulatorError.self) { try store.joinFamily("", account: "bob") }
        #expect(empty?.code == .invalidAction)
        let control = #expect(throws: StoreSimulatorError.self) { try store.joinFamily("a\u{1}b", account: "bob") }
        #expect(control?.code == .invalidAction)
        let none = #expect(throws: StoreSimulatorError.self) { try store.leaveFamily(account: "bob") }
        #expect(none?.code == .invalidAction)
        #expect(store.family(of: "bob") == nil)
        let several = #expect(throws: StoreSimulatorError.self) {
            try store.joinFamily("joneses", accounts: ["carol", "alice", "dave"])
        }
        #expect(several?.detail.contains("account alice is in family smiths") == true)
        #expect(store.familyMembers("joneses").isEmpty, "all or none")
    }

    @Test("Each renewal of the purchaser's subscription gives each member its renewal, in the member's own chain")
    func renewalsPropagate() throws {
        let store = SimulatedStore(configuration: familyCatalog, lane: .manual)
        try store.joinFamily("smiths", account: "alice")
        try store.joinFamily("smiths", account: "bob")
        let changes = FamilyChanges(store)
        let first = try store.buyProduct(monthly, account: "alice")
        try store.advance(by: 86_400 * 40)
        store.runUntilIdle()
        let alice = store.transactions(of: "alice")
        let bob = store.transactions(of: "bob")
        try #require(alice.count >= 2, "renewed at least once (after the introductory week, then monthly)")
        try #require(bob.count == alice.count)
        #expect(bob.map(\.sharedFromID) == alice.map(\.id))
        #expect(bob.map(\.purchaseDate) == alice.map(\.purchaseDate))
        #expect(bob.map(\.expirationDate) == alice.map(\.expirationDate))
        #expect(
            bob.dropFirst().allSatisfy { $0.originalID == bob[0].id },
            "the member's renewals continue the member's first shared transaction")
        #expect(bob[0].originalID != first.originalID)
        #expect(store.access(to: monthly, account: "bob").hasAccess)
        let renewals = (1..<alice.count).flatMap { _ in ["renewed alice \(monthly)", "renewed bob \(monthly)"] }
        #expect(changes.lines == ["subscribed alice \(monthly)", "subscribed bob \(monthly)"] + renewals)
        #expect(changes.all[1].subscription == nil, "the subscription is the purchaser's")
        #expect(changes.all[3].originalTransactionID == bob[0].id)
    }

    @Test("An upgrade to a product not shared replaces the members' period too; an extension moves their expiration")
    func upgradesAndExtensionsFollow() throws {
        let store = SimulatedStore(configuration: familyCatalog, lane: .manual)
        try store.joinFamily("smiths", account: "alice")
        try store.joinFamily("smiths", account: "bob")
        let first = try store.buyProduct(monthly, account: "alice")
        try store.extendRenewalDate(originalID: first.originalID, by: 86_400)
        let extended = try #require(store.transaction(first.id)?.expirationDate)
        #expect(store.transactions(of: "bob").first?.expirationDate == extended)
        _ = try store.buyProduct("com.example.premium.yearly", account: "alice")  // a higher level, not shareable
        let shared = try #require(store.transactions(of: "bob").first)
        #expect(store.transactions(of: "bob").count == 1, "the yearly product is not shared")
        #expect(shared.isUpgraded)
        #expect(!store.access(to: monthly, account: "bob").hasAccess)
        #expect(try store.signedTransactionValue(shared.id).payload.revocationType == nil, "replaced, not revoked")
    }

    @Test("A member keeps access through the purchaser's billing grace period, and loses it in billing retry")
    func graceReachesMembers() throws {
        let store = SimulatedStore(configuration: familyCatalog, lane: .manual)
        try store.joinFamily("smiths", account: "alice")
        try store.joinFamily("smiths", account: "bob")
        _ = try store.buyProduct(monthly, account: "alice")
        store.updateSettings { settings in
            settings.billingRetryOnRenewal = true
            settings.billingGracePeriodEnabled = true
        }
        try store.advance(by: 86_400 * 8)  // the trial's week is over: the renewal fails, in grace
        #expect(store.access(to: monthly, account: "alice").phase == store.access(to: monthly, account: "bob").phase)
        #expect(store.access(to: monthly, account: "bob").hasAccess)
        #expect(store.billing(of: "bob") == store.billing(of: "alice"), "a profile's billing follows access")
        #expect(store.subscriptionStatuses(of: "bob").map(\.code) == [.gracePeriod])
        try store.advance(by: 86_400 * 30)  // past the grace period: billing retry, no access
        #expect(!store.access(to: monthly, account: "alice").hasAccess)
        #expect(!store.access(to: monthly, account: "bob").hasAccess)
        #expect(store.billing(of: "bob") == [monthly: .billingRetry])
        #expect(store.subscriptionStatuses(of: "bob").map(\.code) == [.billingRetry])
    }

    @Test("Refunding the purchaser revokes the members' transactions; a shared transaction cannot be refunded itself")
    func refundRevokes() throws {
        let store = SimulatedStore(configuration: familyCatalog, lane: .manual)
        try store.joinFamily("smiths", account: "alice")
        try store.joinFamily("smiths", account: "bob")
        let bought = try store.buyProduct(pro, account: "alice")
        let shared = try #require(store.transactions(of: "bob").first)
        let refused = #expect(throws: StoreSimulatorError.self) { try store.refund(shared.id) }
        #expect(refused?.code == .invalidAction)
        #expect(store.transaction(shared.id)?.cancellationDate == nil)

        let changes = FamilyChanges(store)
        try store.advance(by: 60)
        try store.refund(bought.id)
        store.runUntilIdle()
        let revoked = try #require(store.transaction(shared.id))
        #expect(revoked.cancellationDate == store.now)
        #expect(!store.access(to: pro, account: "bob").hasAccess)
        let signed = try store.signedTransactionValue(shared.id).payload
        #expect(signed.revocationType == .familyRevoke)
        #expect(signed.revocationDate == JWSDate(store.now))
        #expect(signed.inAppOwnershipType == .familyShared)
        #expect(signed.revocationPercentage == nil, "a family revocation is not a refund")
        #expect(try store.signedTransactionValue(bought.id).payload.revocationType == .refundFull, "the purchaser's")
        #expect(changes.lines == ["refunded(other) alice \(pro)", "familyRevoked bob \(pro)"])
    }

    @Test("Reversing the purchaser's refund shares the purchase again; the revoked transactions stay revoked")
    func refundReversalSharesAgain() throws {
        let store = SimulatedStore(configuration: familyCatalog, lane: .manual)
        try store.joinFamily("smiths", account: "alice")
        try store.joinFamily("smiths", account: "bob")
        let bought = try store.buyProduct(pro, account: "alice")
        try store.refund(bought.id)
        try store.reverseRefund(transactionID: bought.id)
        let bob = store.transactions(of: "bob")
        try #require(bob.count == 2)
        #expect(bob[0].cancellationDate != nil)
        #expect(bob[1].cancellationDate == nil && bob[1].sharedFromID == bought.id)
        #expect(store.access(to: pro, account: "bob").hasAccess)
    }

    @Test("Leaving the family revokes what the account had through it and what the others had of its purchases")
    func leavingRevokesBothWays() throws {
        let store = SimulatedStore(configuration: familyCatalog, lane: .manual)
        try store.joinFamily("smiths", account: "alice")
        try store.joinFamily("smiths", account: "bob")
        try store.joinFamily("smiths", account: "carol")
        let pass = try store.buyProduct(pro, account: "alice")
        let subscription = try store.buyProduct(monthly, account: "bob")
        let changes = FamilyChanges(store)
        try store.leaveFamily(account: "bob")
        store.runUntilIdle()
        #expect(store.family(of: "bob") == nil)
        #expect(store.familyMembers("smiths") == ["alice", "carol"])
        #expect(!store.access(to: pro, account: "bob").hasAccess, "bob's share of alice's purchase is revoked")
        #expect(!store.access(to: monthly, account: "alice").hasAccess, "alice's share of bob's subscription too")
        #expect(!store.access(to: monthly, account: "carol").hasAccess)
        #expect(store.access(to: pro, account: "carol").hasAccess, "carol keeps her share of alice's purchase")
        #expect(store.access(to: monthly, account: "bob").hasAccess, "bob's own purchase stays his")
        #expect(store.transaction(pass.id)?.cancellationDate == nil)
        #expect(store.transaction(subscription.id)?.cancellationDate == nil)
        #expect(
            changes.lines.sorted() == [
                "familyRevoked alice \(monthly)", "familyRevoked bob \(pro)", "familyRevoked carol \(monthly)",
            ])
    }

    @Test("Joining shares what the family owns with the new member, and what the new member owns with the family")
    func joiningSharesWhatIsOwned() throws {
        let store = SimulatedStore(configuration: familyCatalog, lane: .manual)
        try store.joinFamily("smiths", account: "alice")
        let pass = try store.buyProduct(pro, account: "alice")
        let subscription = try store.buyProduct(monthly, account: "bob")
        try store.advance(by: 60)
        try store.joinFamily("smiths", account: "bob")
        #expect(store.transactions(of: "bob").compactMap(\.sharedFromID) == [pass.id])
        #expect(store.transactions(of: "alice").compactMap(\.sharedFromID) == [subscription.id])
        #expect(store.access(to: monthly, account: "alice").hasAccess)
        #expect(store.transactions(of: "bob").last?.purchaseDate == pass.purchaseDate)
        // Leaving and joining again shares again, with new transactions.
        try store.leaveFamily(account: "bob")
        try store.joinFamily("smiths", account: "bob")
        #expect(store.transactions(of: "bob").filter(\.isFamilyShared).count == 2)
        #expect(store.access(to: pro, account: "bob").hasAccess)
    }

    @Test("A device of a member hears its shared transaction as a purchase made elsewhere, and its revocation")
    func membersDevicesHear() throws {
        let store = SimulatedStore(configuration: familyCatalog, lane: .manual)
        let listener = EventRecorder()
        let phone = store.connect(deviceID: "bobs-phone", account: "bob", frontEnd: "tests", listener: listener)
        try store.joinFamily("smiths", account: "alice")
        try store.joinFamily("smiths", account: "bob")
        let bought = try store.buyProduct(pro, account: "alice")
        store.runUntilIdle()
        let shared = try #require(store.transactions(of: "bob").first)
        #expect(phone.otherDevicePurchases.map(\.id) == [shared.id])
        #expect(phone.unfinishedTransactions.isEmpty, "StoreKit 1's queue does not hold it")
        #expect(listener.events.contains(.purchasedOnOtherDevice(phone.otherDevicePurchases)))
        try store.refund(bought.id)
        store.runUntilIdle()
        #expect(listener.events.contains(.refunded([shared.id])))
        #expect(listener.events.contains(.entitlementsRevoked([pro])))
    }

    @Test("A member's receipt lists its shared transactions, a restore restores them, a revocation cancels them")
    func receiptsAndRestores() throws {
        let store = SimulatedStore(configuration: familyCatalog, lane: .manual)
        let (phone, listener) = store.silentConnection("bobs-phone", account: "bob")
        try store.joinFamily("smiths", account: "alice")
        try store.joinFamily("smiths", account: "bob")
        let bought = try store.buyProduct(pro, account: "alice")
        let shared = try #require(store.transactions(of: "bob").first)
        let receipt = store.appReceiptModel(deviceID: "bobs-phone")
        #expect(receipt.inAppPurchases.map(\.transactionIdentifier) == [String(shared.id)])
        #expect(receipt.inAppPurchases.first?.productIdentifier == pro)
        #expect(receipt.inAppPurchases.first?.cancellationDate == nil)
        phone.restore()
        store.runUntilIdle()
        #expect(phone.unfinishedTransactions.map(\.recordID) == [shared.id], "restored")
        try store.advance(by: 60)
        try store.refund(bought.id)
        let revoked = store.appReceiptModel(deviceID: "bobs-phone").inAppPurchases.first
        #expect(revoked?.cancellationDate == store.now)
        for transaction in phone.unfinishedTransactions { phone.finish(transaction.id) }
        phone.restore()
        store.runUntilIdle()
        #expect(phone.unfinishedTransactions.isEmpty, "a revoked shared transaction is not restored")
        _ = listener
    }

    @Test("A durable store reopened keeps its families and shared transactions, from the journal and from its tables")
    func durableStoreKeepsFamilies() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        var store = try SimulatedStore(statePath: path, configuration: familyCatalog, lane: .manual)
        try store.joinFamily("smiths", account: "alice")
        try store.joinFamily("smiths", account: "bob")
        try store.joinFamily("smiths", account: "carol")
        _ = try store.buyProduct(pro, account: "alice")
        _ = try store.buyProduct(monthly, account: "alice")
        try store.leaveFamily(account: "carol")
        let expected = ["alice", "bob", "carol"].map { store.transactions(of: $0) }
        try store.close()
        for compacting in [false, true] {
            store = try SimulatedStore(statePath: path, lane: .manual)
            #expect(store.familyMembers("smiths") == ["alice", "bob"], "compacted: \(compacting)")
            #expect(store.family(of: "carol") == nil)
            #expect(["alice", "bob", "carol"].map { store.transactions(of: $0) } == expected)
            #expect(store.transactions(of: "bob").allSatisfy { $0.isFamilyShared })
            if !compacting { try store.compact() }
            try store.close()
        }
        // Sharing goes on after reopening.
        store = try SimulatedStore(statePath: path, lane: .manual)
        try store.advance(by: 86_400 * 40)
        let periods = store.transactions(of: "alice").filter { $0.productID == monthly }.count
        #expect(periods > 1)
        #expect(store.transactions(of: "bob").count == 1 + periods, "the shared non-consumable and every period")
        try store.close()
    }

    @Test("A damaged row of the families table is refused naming the file, the table and the row; nothing changes")
    func damagedFamilyRow() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let store = try SimulatedStore(statePath: path, lane: .manual)
        try store.joinFamily("smiths", account: "alice")
        try store.compact()
        try store.close()
        let table = StoreTables.Table.families.rawValue
        try LedgerDatabase(path: path).write { txn in
            #expect(try txn.all(in: table).map(\.key) == ["alice"])
            try txn.put([0xFF, 0x01], forKey: "alice", in: table)
        }
        let error = try StateFileTests.expectRefused(.stateCorrupt, path, in: directory)
        #expect(error?.detail.contains("table \(table), row alice") == true, "\(error?.detail ?? "")")
    }
}
