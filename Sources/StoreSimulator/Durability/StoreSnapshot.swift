import Foundation
import StoreModels

/// A store's whole state at one point of its journal, as a state file of format 1 keeps it (JSON in the `records`
/// table): the starting point of a replay, read to migrate such a file; format 2 keeps the state in tables
/// (``StoreTables``), which reuse the parts of this type that describe a device and a scripted outcome.
///
/// Everything a store knows is here except what belongs to the running process: open queues (devices are kept with
/// their account and unfinished transactions, without a connection) and the real-time timer.
struct StoreSnapshot: Codable, Sendable {
    /// A device as the snapshot keeps it.
    struct Device: Codable, Sendable {
        var id: String
        var account: String
        var unfinished: [DeviceTransaction]
        /// The storefront each transaction in progress started in, by transaction.
        var startedIn: [StartedIn]
        /// Purchases made on other devices of the account, not yet finished here; absent from the snapshots of
        /// earlier releases, and when there are none.
        var otherDevicePurchases: [DeviceTransaction]?

        init(
            id: String, account: String, unfinished: [DeviceTransaction], startedIn: [StartedIn],
            otherDevicePurchases: [DeviceTransaction]? = nil
        ) {
            self.id = id
            self.account = account
            self.unfinished = unfinished
            self.startedIn = startedIn
            self.otherDevicePurchases = otherDevicePurchases
        }

        /// Captures a device of a store's state.
        init(id: String, _ device: StoreState.Device) {
            self.init(
                id: id, account: device.account, unfinished: device.unfinished,
                startedIn: device.queue.compactMap { entry in
                    entry.startedIn.map { StartedIn(transaction: entry.transaction.id, storefront: $0) }
                }.sorted { $0.transaction < $1.transaction },
                otherDevicePurchases: device.otherDevicePurchases.isEmpty ? nil : device.otherDevicePurchases)
        }

        /// Checks a device read from a state file's row `key`: filed under its own identifier, and each storefront
        /// kept for one of its unfinished transactions.
        func checkStored(key: String) throws(StoreState.StoredValueProblem) {
            let table = StoreTables.Table.devices.rawValue
            guard id == key else {
                throw StoreState.StoredValueProblem(
                    table: table, row: key, field: "id", problem: "the device \(id) is filed under another key")
            }
            let ids = Set(unfinished.map(\.id))
            for entry in startedIn where !ids.contains(entry.transaction) {
                throw StoreState.StoredValueProblem(
                    table: table, row: key, field: "startedIn",
                    problem: "transaction \(entry.transaction) is not among the device's unfinished transactions")
            }
        }

        /// The device as a store's state keeps it.
        func restored() -> StoreState.Device {
            let restored = StoreState.Device(id: id, account: account)
            let startedIn = Dictionary(
                self.startedIn.map { ($0.transaction, $0.storefront) }, uniquingKeysWith: { _, last in last })
            for transaction in unfinished { restored.append(transaction, startedIn: startedIn[transaction.id]) }
            restored.otherDevicePurchases = otherDevicePurchases ?? []
            return restored
        }
    }

    /// The records that unfinished transactions of several devices report (a purchase made elsewhere): shared.
    static func sharedRecordIDs(_ devices: [Device]) -> Set<UInt64> {
        var reporters: [UInt64: Int] = [:]
        for device in devices {
            let reported = device.unfinished + (device.otherDevicePurchases ?? [])
            for recordID in Set(reported.compactMap(\.recordID)) { reporters[recordID, default: 0] += 1 }
        }
        return Set(reporters.filter { $0.value > 1 }.keys)
    }

    /// The storefront a transaction in progress started in.
    struct StartedIn: Codable, Sendable {
        var transaction: UInt64
        var storefront: Storefront
    }

    /// The consumption information sent for a transaction.
    struct Consumption: Codable, Sendable {
        var transaction: UInt64
        var information: ConsumptionInformation
    }

    /// A scripted outcome waiting for a purchase.
    struct Scripted: Codable, Sendable {
        var productID: String?
        var outcome: ScriptedOutcomeRecord
    }

    /// A scripted outcome as JSON keeps it.
    struct ScriptedOutcomeRecord: Codable, Sendable {
        var kind: String
        var failure: StoreFailure?

        init(_ outcome: ScriptedOutcome) {
            switch outcome {
            case .succeed: kind = "succeed"
            case .fail(let failure):
                kind = "fail"
                self.failure = failure
            case .askToBuy: kind = "askToBuy"
            case .interrupt: kind = "interrupt"
            }
        }

        func outcome() throws(JournalReader.Failure) -> ScriptedOutcome {
            switch (kind, failure) {
            case ("succeed", _): return .succeed
            case ("fail", let failure?): return .fail(failure)
            case ("askToBuy", _): return .askToBuy
            case ("interrupt", _): return .interrupt
            default: throw JournalReader.Failure(offset: 0, message: "unknown scripted outcome \"\(kind)\"")
            }
        }
    }

    /// The log sequence of the last command the snapshot includes (0: none).
    var sequence: Int64
    /// The store time of the snapshot.
    var time: Date
    /// `all` or `receiptOnly`.
    var retention: String
    var configuration: StoredConfiguration
    var settings: StoreSettings
    /// The settings accounts carry themselves; absent from the snapshots of earlier releases.
    var accountSettings: [String: AccountSettings]?
    /// The family of each account in one; absent from the snapshots of earlier releases and of stores with none.
    var families: [String: String]?
    /// The consumption information sent, by transaction, in transaction order; absent from the snapshots of earlier
    /// releases and of stores with none.
    var consumption: [Consumption]?
    /// The mass renewal-date extensions, by product and request identifier; absent from the snapshots of earlier
    /// releases and of stores with none.
    var massExtensions: [String: MassRenewalExtension]?
    /// The app's Retention Messaging; absent from the snapshots of earlier releases and of stores with none set up.
    var retentionMessaging: RetentionMessaging?
    var nextTransactionID: UInt64
    var nextWebOrderLineItemID: UInt64
    /// The history, by identifier.
    var records: [TransactionRecord]
    /// Devices by identifier.
    var devices: [Device]
    var scripted: [Scripted]
    var subscriptions: SubscriptionBook
    var usedNonces: [String]
    var receiptExpired: [String]

    /// Captures `state`.
    init(_ state: StoreState, sequence: Int64, time: Date) {
        self.sequence = sequence
        self.time = time
        self.retention = state.retention == .all ? "all" : "receiptOnly"
        self.configuration = StoredConfiguration(state.configuration)
        self.settings = state.settings
        self.accountSettings = state.accountSettings.isEmpty ? nil : state.accountSettings.dictionary
        self.families = state.families.isEmpty ? nil : state.families.dictionary
        self.consumption =
            state.consumption.isEmpty
            ? nil
            : state.consumption.sorted { $0.key < $1.key }.map {
                Consumption(transaction: $0.key, information: $0.value)
            }
        self.massExtensions = state.massExtensions.isEmpty ? nil : state.massExtensions.dictionary
        self.retentionMessaging = state.retentionMessaging == RetentionMessaging() ? nil : state.retentionMessaging
        self.nextTransactionID = state.nextTransactionID
        self.nextWebOrderLineItemID = state.nextWebOrderLineItemID
        self.records = state.records.everyRecord.sorted { $0.id < $1.id }
        self.devices = state.devices.keys.sorted().map { id in Device(id: id, state.devices[id]!) }
        self.scripted = state.scripted.map {
            Scripted(productID: $0.productID, outcome: ScriptedOutcomeRecord($0.outcome))
        }
        self.subscriptions = state.subscriptions
        self.usedNonces = state.usedNonces.sorted()
        self.receiptExpired = state.receiptExpired.sorted()
    }

    /// The state the snapshot holds.
    func state() throws(JournalReader.Failure) -> StoreState {
        let retention: HistoryRetention
        switch self.retention {
        case "all": retention = .all
        case "receiptOnly": retention = .receiptOnly
        default: throw JournalReader.Failure(offset: 0, message: "unknown history retention \"\(self.retention)\"")
        }
        var state = StoreState(configuration: configuration.configuration, retention: retention)
        state.settings = settings
        state.accountSettings = TrackedDictionary(accountSettings ?? [:])
        state.families = TrackedDictionary(families ?? [:])
        state.consumption = TrackedDictionary(
            Dictionary(
                (consumption ?? []).map { ($0.transaction, $0.information) }, uniquingKeysWith: { _, last in last }))
        state.massExtensions = TrackedDictionary(massExtensions ?? [:])
        state.retentionMessaging = retentionMessaging ?? RetentionMessaging()
        state.nextTransactionID = nextTransactionID
        state.nextWebOrderLineItemID = nextWebOrderLineItemID
        state.records = RecordTable(Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last }))
        for device in devices { state.devices[device.id] = device.restored() }
        state.sharedRecordIDs = Self.sharedRecordIDs(devices)
        state.scripted = []
        for entry in scripted { state.scripted.append((entry.productID, try entry.outcome.outcome())) }
        state.subscriptions = subscriptions
        state.usedNonces = TrackedSet(Set(usedNonces))
        state.receiptExpired = TrackedSet(Set(receiptExpired))
        return state
    }
}
