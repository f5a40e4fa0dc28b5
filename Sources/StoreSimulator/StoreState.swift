import Foundation
import StoreModels

/// Everything a store knows, kept behind the store's lock.
struct StoreState: Sendable {
    /// One device known to the store: its account, its unfinished transactions and, while a queue is open for it, the
    /// queue.
    ///
    /// A reference, so that the store's steps change a device in place instead of copying its transactions out of
    /// `devices` and back; it is only read and written under the store's lock, like the rest of the state.
    final class Device: @unchecked Sendable {
        var account: String
        var unfinished: [DeviceTransaction] = []
        var endpoint = WeakDevice()
        /// The storefront each transaction in progress started in.
        var startedIn: [UInt64: Storefront] = [:]

        init(account: String) {
            self.account = account
        }

        func index(of id: UInt64) -> Int? { unfinished.firstIndex { $0.id == id } }
    }

    var configuration: StoreConfiguration
    var settings: StoreSettings
    var nextTransactionID: UInt64 = 1_000_000_000_000_001
    var nextWebOrderLineItemID: UInt64 = 2_000_000_000_000_001
    var records: [UInt64: TransactionRecord] = [:]
    var devices: [String: Device] = [:]
    var scripted: [(productID: String?, outcome: ScriptedOutcome)] = []
    /// Subscriptions by account and group (`account` + newline + `groupID`), with their schedule.
    var subscriptions = SubscriptionBook()
    /// Nonces of promotional offers already used.
    var usedNonces = Set<String>()
    var retention: HistoryRetention
    /// The timer of real-time runs, while one runs.
    var dueEventTimer: DueEventTimer?

    init(configuration: StoreConfiguration, retention: HistoryRetention) {
        self.configuration = configuration
        self.settings = configuration.settings
        self.retention = retention
    }

    /// The device with an identifier, added signed in to the default account if the store does not know it yet.
    mutating func device(_ id: String) -> Device {
        if let device = devices[id] { return device }
        let device = Device(account: SimulatedStore.defaultAccount)
        devices[id] = device
        return device
    }

    mutating func allocateTransactionID() -> UInt64 {
        defer { nextTransactionID += 1 }
        return nextTransactionID
    }

    mutating func allocateWebOrderLineItemID() -> UInt64 {
        defer { nextWebOrderLineItemID += 1 }
        return nextWebOrderLineItemID
    }

    /// Takes the first scripted outcome meant for this product (or for any product).
    mutating func takeScriptedOutcome(for productID: String) -> ScriptedOutcome? {
        guard let index = scripted.firstIndex(where: { $0.productID == nil || $0.productID == productID }) else {
            return nil
        }
        return scripted.remove(at: index).outcome
    }

    static func subscriptionKey(account: String, groupID: String) -> String { account + "\n" + groupID }

    /// The records of an account, oldest first.
    func records(of account: String) -> [TransactionRecord] {
        records.values.filter { $0.account == account }.sorted { $0.id < $1.id }
    }

    /// The devices signed in to an account, in identifier order.
    func deviceIDs(of account: String) -> [String] {
        devices.filter { $0.value.account == account }.map(\.key).sorted()
    }
}

/// A weak reference to a device, so that a closed queue is not kept alive by its store.
struct WeakDevice: @unchecked Sendable {
    // @unchecked: the reference is only read and written under the store's lock; StoreDevice itself is Sendable.
    weak var device: (any StoreDevice)?
}
