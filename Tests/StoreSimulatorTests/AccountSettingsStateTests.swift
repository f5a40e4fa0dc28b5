import Foundation
import StoreModels
import TestSupport
import Testing

@testable import StoreSimulator

@Suite("Account settings and price consent in a state file")
struct AccountSettingsStateTests {
    @Test(
        "Account settings and a shown price-consent sheet survive reopening",
        arguments: [StoreDurability(), StoreDurability(compactEvery: 1)])
    func survivesReopen(durability: StoreDurability) throws {
        let path = FileManager.default.temporaryDirectory.path + "/account-settings-\(UUID().uuidString).sqlite"
        defer {
            for suffix in ["", "-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        var store = try SimulatedStore(statePath: path, durability: durability, lane: .manual)
        let (device, listener) = store.silentConnection("child-device", account: "child")
        defer { withExtendedLifetime((device, listener)) {} }
        store.updateAccountSettings("child") {
            $0.paymentsAllowed = false
            $0.askToBuyEnabled = true
        }
        let record = try store.buyProduct("com.example.premium.monthly", account: "child")
        try store.requestPriceIncreaseConsent(record.id)
        store.updateSettings { $0.priceConsentAnswer = .decline }
        #expect(store.showPriceConsent(account: "child") == ["com.example.premium.monthly"])
        try store.close()

        store = try SimulatedStore(statePath: path, durability: durability, lane: .manual)
        #expect(store.accountSettings("child") == AccountSettings(paymentsAllowed: false, askToBuyEnabled: true))
        #expect(!store.paymentsAllowed(account: "child"))
        #expect(store.askToBuyEnabled(account: "child"))
        #expect(store.paymentsAllowed(account: "default"))
        #expect(store.settings.priceConsentAnswer == .decline)
        #expect(store.pendingPriceConsent(account: "child").isEmpty)
        #expect(store.subscription(groupID: "premium", account: "child")?.autoRenew == false)
        try store.close()
    }

    @Test("A snapshot and settings written before account settings and price-consent answers existed still open")
    func earlierSnapshotOpens() throws {
        var state = StoreState(configuration: .demo, retention: .all)
        state.settings.paymentsAllowed = false
        let encoded = try JSONEncoder().encode(StoreSnapshot(state, sequence: 0, time: ManualClock.defaultStart))
        var object = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        var settings = try #require(object["settings"] as? [String: Any])
        #expect(settings["priceConsentAnswer"] != nil)
        settings["priceConsentAnswer"] = nil
        object["settings"] = settings
        object["accountSettings"] = nil
        let earlier = try JSONSerialization.data(withJSONObject: object)
        let decoded = try JSONDecoder().decode(StoreSnapshot.self, from: earlier).state()
        #expect(decoded.settings.priceConsentAnswer == .dismiss)
        #expect(!decoded.settings.paymentsAllowed)
        #expect(decoded.accountSettings.isEmpty)
    }

    @Test("The new journal commands read back as written")
    func commandsRoundTrip() throws {
        for command in [
            StoreCommand.operation(.updateAccountSettings(account: "child", AccountSettings(paymentsAllowed: false))),
            .operation(.showPriceConsent(account: "child")),
        ] {
            var writer = JournalWriter()
            command.encode(at: ManualClock.defaultStart, into: &writer)
            let decoded = try StoreCommand.decode(writer.bytes)
            switch (command, decoded.command) {
            case (.operation(let written), .operation(let read)):
                #expect(written == read)
            default:
                Issue.record("\(command) read back as \(decoded.command)")
            }
        }
    }
}
