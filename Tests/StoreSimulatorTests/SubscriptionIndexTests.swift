import Foundation
import ReceiptKit
import StoreModels
import Testing

@testable import StoreSimulator

@Suite("Each account's subscriptions, found without a look at the whole store")
struct SubscriptionIndexTests {
    private static let monthly = "com.example.premium.monthly"

    /// Every account's subscriptions as the book lists them by account, against a look at every subscription.
    private static func expectListedByAccount(_ book: SubscriptionBook, accounts: [String]) {
        for account in accounts + ["nobody"] {
            #expect(
                book.values(of: account).map(\.originalID).sorted()
                    == book.values.filter { $0.account == account }.map(\.originalID).sorted(),
                "account \(account)")
        }
    }

    @Test("The book lists subscriptions by account through writes, removals, rows and encoding")
    func bookByAccount() throws {
        let store = SimulatedStore(lane: .manual)
        let accounts = (0..<6).map { "account-\($0)" }
        for account in accounts { _ = try store.buyProduct(Self.monthly, account: account) }
        let states = try accounts.map { try #require(store.subscription(groupID: "premium", account: $0)) }
        func key(_ state: SubscriptionState) -> String {
            StoreState.subscriptionKey(account: state.account, groupID: state.groupID)
        }

        var book = SubscriptionBook()
        for state in states { book[key(state)] = state }
        #expect(book.values(of: "account-3").map(\.originalID) == [states[3].originalID])
        Self.expectListedByAccount(book, accounts: accounts)

        // An emptied slot lists nothing; filled again, it is listed once.
        book[key(states[2])] = nil
        #expect(book.values(of: "account-2").isEmpty)
        Self.expectListedByAccount(book, accounts: accounts)

        // Rebuilt from its rows (as a state file is read), with the emptied slot filled again afterwards.
        let rows = book.rows(nil).sorted { $0.key < $1.key }.map(\.value)
        var rebuilt = SubscriptionBook(rows: rows, nextSequence: book.sequenceCounter)
        Self.expectListedByAccount(rebuilt, accounts: accounts)
        rebuilt[key(states[2])] = states[2]
        #expect(rebuilt.values(of: "account-2").map(\.originalID) == [states[2].originalID])
        Self.expectListedByAccount(rebuilt, accounts: accounts)

        // Encoded and decoded (as a snapshot is), the book lists the same.
        let decoded = try JSONDecoder().decode(SubscriptionBook.self, from: JSONEncoder().encode(rebuilt))
        Self.expectListedByAccount(decoded, accounts: accounts)
        #expect(decoded.values(of: "account-2").map(\.originalID) == [states[2].originalID])

        // Removals by record and of everything.
        rebuilt.removeAll(naming: Set(rebuilt.values(of: "account-4").map(\.originalID)))
        #expect(rebuilt.values(of: "account-4").isEmpty)
        Self.expectListedByAccount(rebuilt, accounts: accounts)
        rebuilt.removeAll()
        for account in accounts { #expect(rebuilt.values(of: account).isEmpty) }
        rebuilt[key(states[0])] = states[0]
        #expect(rebuilt.values(of: "account-0").map(\.originalID) == [states[0].originalID])
        Self.expectListedByAccount(rebuilt, accounts: accounts)
    }

    @Test("A book whose slots and schedule disagree is refused on decoding, not read out of bounds")
    func mismatchedBookRefused() throws {
        let store = SimulatedStore(lane: .manual)
        _ = try store.buyProduct(Self.monthly)
        var book = SubscriptionBook()
        let state = try #require(store.subscription(groupID: "premium"))
        book[StoreState.subscriptionKey(account: state.account, groupID: state.groupID)] = state
        var object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(book)) as? [String: Any])
        object["scheduled"] = [Any]()
        let spoiled = try JSONSerialization.data(withJSONObject: object)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(SubscriptionBook.self, from: spoiled) }
    }

    @Test("Subscriptions and renewal info by original transaction among many accounts, in memory and reopened")
    func storeByAccount() throws {
        let path = FileManager.default.temporaryDirectory.path + "/subscription-index-\(UUID().uuidString).sqlite"
        defer {
            for suffix in ["", "-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        var store = try SimulatedStore(statePath: path, lane: .manual)
        let accounts = (0..<12).map { "subscriber-\($0)" }
        var originals: [String: UInt64] = [:]
        for account in accounts { originals[account] = try store.buyProduct(Self.monthly, account: account).id }
        let consumable = try store.buyProduct("com.example.coins100", account: "subscriber-0")
        try store.advance(by: 40 * 86_400)  // past the free week and a paid month: renewals in every account
        try store.setAutoRenew(false, transactionID: try #require(originals["subscriber-5"]))

        func check(_ store: SimulatedStore) throws {
            for account in accounts {
                let original = try #require(originals[account])
                let subscriptions = store.subscriptions(of: account)
                #expect(subscriptions.map(\.originalID) == [original], "\(account)")
                #expect(subscriptions == [try #require(store.subscription(groupID: "premium", account: account))])
                let subscription = subscriptions[0]
                let payload = try store.signedRenewalInfoValue(originalTransactionID: original).payload
                // What the account's own history gives, signed at any date.
                var expected = store.payloadMapping.renewalInfo(
                    subscription, history: store.transactions(of: account), signedDate: store.now)
                expected.signedDate = payload.signedDate
                #expect(payload == expected, "\(account)")
                #expect(payload.autoRenewStatus == (account == "subscriber-5" ? .off : .on))
            }
            #expect(store.subscriptions(of: "nobody").isEmpty)
            for missing in [consumable.id, 42] {
                #expect(throws: StoreSimulatorError.self) {
                    try store.signedRenewalInfoValue(originalTransactionID: missing)
                }
            }
        }
        try check(store)
        try store.close()
        store = try SimulatedStore(statePath: path, lane: .manual)
        try check(store)
        store.clearTransactions()
        for account in accounts { #expect(store.subscriptions(of: account).isEmpty) }
        try store.close()
    }
}
