import Foundation
import StoreModels

/// Everything a store knows, kept behind the store's lock.
struct StoreState: Sendable {
    /// One device known to the store: its account, its unfinished transactions in the order they arrived, and the
    /// front ends attached to it.
    ///
    /// A reference, so that the store's steps change a device in place instead of copying its transactions out of
    /// `devices` and back, and so that a front end's ``DeviceConnection`` holds on to its device instead of looking it
    /// up by identifier at every step. It is only read and written under the store's lock, like the rest of the state.
    final class Device: @unchecked Sendable {
        /// An unfinished transaction, with the storefront its payment started in while it is `.purchasing`.
        struct Unfinished {
            var transaction: DeviceTransaction
            var startedIn: Storefront?
        }

        /// The device's identifier, its key in `devices`.
        let id: String
        // The mutable properties are only used under the store's lock, which already makes each access exclusive:
        // they go without the run-time exclusivity check of class properties, which the hot path paid at every step.
        /// The account the device is signed in to.
        @exclusivity(unchecked) var account: String {
            didSet { noteChanged() }
        }
        /// The unfinished transactions in the order they arrived, found by identifier.
        @exclusivity(unchecked) var queue = IdentifiedQueue<Unfinished>() {
            didSet {
                noteHolding()
                noteChanged()
            }
        }
        /// Purchases made on other devices of the account, in the order the store made them, until a front end of
        /// this device finishes them; not in ``queue``, which StoreKit 1 reads.
        @exclusivity(unchecked) var otherDevicePurchases: [DeviceTransaction] = [] {
            didSet {
                noteHolding()
                noteChanged()
            }
        }
        /// The directory's list of devices that hold transactions, once the device is stored in a directory, and the
        /// device's position in it (`-1` while it holds none).
        @exclusivity(unchecked) weak var holders: DeviceDirectory.Holders?
        @exclusivity(unchecked) var holderPosition = -1
        /// The directory's list of devices changed since a state file's tables were written, while it keeps one.
        @exclusivity(unchecked) weak var changes: DeviceDirectory.Changes?
        /// Whether a change needs no note: the device is in ``changes`` already, or no list is kept (an in-memory
        /// store), so that a change costs such a store one branch.
        @exclusivity(unchecked) var changeNoted = true
        /// Whether another device of the directory the device is stored in is signed in to its account, kept by the
        /// directory: a purchase then asks for the account's devices only when there are others to tell.
        @exclusivity(unchecked) var sharesAccount = false
        /// The connections attached, in attach order; held weakly.
        @exclusivity(unchecked) private var attachments: [WeakConnection] = []
        /// Counts changes to ``attachments``, so that an audience read earlier is known to be still the device's.
        @exclusivity(unchecked) private(set) var attachmentGeneration: UInt64 = 0

        init(id: String, account: String) {
            self.id = id
            self.account = account
        }

        /// The unfinished transactions, in the order they arrived.
        var unfinished: [DeviceTransaction] { queue.map(\.transaction) }

        /// The position in ``queue`` of an unfinished transaction.
        func index(of id: UInt64) -> Int? { queue.position(of: id) }

        /// Adds an unfinished transaction at the end.
        func append(_ transaction: DeviceTransaction, startedIn: Storefront? = nil) {
            queue.append(Unfinished(transaction: transaction, startedIn: startedIn), id: transaction.id)
        }

        /// Attaches a connection after the others; one attached earlier under the same front-end name stops hearing.
        func attach(_ connection: DeviceConnection) {
            attachments.removeAll { entry in
                guard let attached = entry.connection else { return true }
                return attached.frontEnd == connection.frontEnd
            }
            attachments.append(WeakConnection(connection: connection))
            attachmentGeneration &+= 1
        }

        /// Detaches a connection.
        func detach(_ connection: DeviceConnection) {
            attachments.removeAll { $0.connection == nil || $0.connection === connection }
            attachmentGeneration &+= 1
        }

        /// Whether a connection is attached.
        func isAttached(_ connection: DeviceConnection) -> Bool {
            attachments.contains { $0.connection === connection }
        }

        /// Whether any front end with a live listener is attached.
        var hasListeners: Bool {
            attachments.contains { $0.connection?.currentListener != nil }
        }

        /// The live listeners, in attach order, with their connections.
        func audience() -> DeviceAudience {
            if attachments.count == 1 {
                guard let connection = attachments[0].connection, let listener = connection.currentListener else {
                    return .none
                }
                return .one(connection, listener)
            }
            var all: [(DeviceConnection, any DeviceListener)] = []
            for entry in attachments {
                guard let connection = entry.connection, let listener = connection.currentListener else { continue }
                all.append((connection, listener))
            }
            if all.count > 1 { return .many(all) }
            return all.first.map { .one($0.0, $0.1) } ?? .none
        }

        /// Removes the unfinished transactions that satisfy a predicate.
        func removeAll(where shouldRemove: (DeviceTransaction) -> Bool) {
            queue.removeAll { shouldRemove($0.transaction) }
        }

        /// Whether the device holds an unfinished transaction or a purchase made on another device.
        var holdsTransactions: Bool { !queue.isEmpty || !otherDevicePurchases.isEmpty }

        /// Keeps the directory's list of devices that hold transactions up to date after a change of either list.
        private func noteHolding() {
            guard holdsTransactions != (holderPosition >= 0) else { return }
            holders?.update(self)
        }

        /// Puts the device in the directory's list of changed devices, if one is kept and it is not there yet.
        private func noteChanged() {
            guard !changeNoted else { return }
            changes?.note(self)
        }
    }

    var configuration: StoreConfiguration {
        didSet { lastProduct = nil }
    }
    /// The product last looked up by ``product(_:)``: payments come mostly for the same few products, and comparing an
    /// identifier costs less than hashing it.
    private var lastProduct: ProductDefinition?
    var settings: StoreSettings
    /// The settings accounts carry themselves, by account; an account not listed follows the store-wide settings.
    var accountSettings: TrackedDictionary<String, AccountSettings> = [:]
    var nextTransactionID: UInt64 = 1_000_000_000_000_001
    var nextWebOrderLineItemID: UInt64 = 2_000_000_000_000_001
    /// The history, by identifier.
    var records = RecordTable()
    /// The consumable and failed records that unfinished transactions of several devices may report (a purchase made
    /// elsewhere reaches every device of its account). Any other such record is reported by one transaction at most,
    /// so finishing that transaction can drop it (`.receiptOnly`) without looking through every device's queue.
    var sharedRecordIDs = Set<UInt64>()
    /// The devices by identifier, each filed under its account. Entries are added, never replaced or removed:
    /// connections hold on to their device.
    var devices = DeviceDirectory()
    var scripted: [(productID: String?, outcome: ScriptedOutcome)] = []
    /// Subscriptions by account and group (`account` + newline + `groupID`), with their schedule.
    var subscriptions = SubscriptionBook()
    /// Nonces of promotional offers already used.
    var usedNonces = TrackedSet<String>()
    var retention: HistoryRetention
    /// Devices whose receipts are made expired (`SKReceiptPropertyIsExpired`).
    var receiptExpired = TrackedSet<String>()
    /// The timer of real-time runs, while one runs.
    var dueEventTimer: DueEventTimer?
    /// The changes applied and not yet told, while anyone observes them.
    var changes = PendingChanges()
    /// The family each account is in, by account; an account in no family is not listed.
    var families: TrackedDictionary<String, String> = [:]
    /// The consumption information a developer's server last sent for each transaction, by transaction.
    var consumption: TrackedDictionary<UInt64, ConsumptionInformation> = [:]
    /// Every mass renewal-date extension requested, by product and request identifier
    /// (``MassRenewalExtension/key(productID:requestIdentifier:)``).
    var massExtensions: TrackedDictionary<String, MassRenewalExtension> = [:]
    /// The app's Retention Messaging: images, messages, default messages, the real-time URL, what was shown.
    var retentionMessaging = RetentionMessaging()
    /// What the devices of family members are to hear of transactions shared with them or revoked, in the order the
    /// store made them, until the store sends it (``SimulatedStore/tellChanges()``).
    var familyOutbox: [(deviceID: String, event: DeviceEvent)] = []

    init(configuration: StoreConfiguration, retention: HistoryRetention) {
        self.configuration = configuration
        self.settings = configuration.settings
        self.retention = retention
    }

    /// Has every part of the state kept in a state file's tables by rows (the history, the subscriptions, the devices,
    /// the accounts' settings and families, consumption information, mass extensions, used nonces and expired
    /// receipts) note the rows it changes from now on, so that the tables are brought up to date with those rows
    /// (``StoreTables``). Changes already noted are kept.
    mutating func trackChanges() {
        records.tracksChanges = true
        subscriptions.tracksChanges = true
        devices.trackChanges()
        accountSettings.tracksChanges = true
        families.tracksChanges = true
        consumption.tracksChanges = true
        massExtensions.tracksChanges = true
        usedNonces.tracksChanges = true
        receiptExpired.tracksChanges = true
    }

    /// The device with an identifier, added signed in to the default account if the store does not know it yet.
    mutating func device(_ id: String) -> Device {
        if let device = devices[id] { return device }
        let device = Device(id: id, account: SimulatedStore.defaultAccount)
        devices[id] = device
        return device
    }

    /// The device with an identifier, made if new, signed in to `account` and filed under it.
    mutating func registerDevice(_ id: String, account: String) -> Device {
        let device = devices[id] ?? Device(id: id, account: account)
        device.account = account
        devices[id] = device
        return device
    }

    /// The catalog's product with an identifier.
    mutating func product(_ id: String) -> ProductDefinition? {
        if let lastProduct, lastProduct.id == id { return lastProduct }
        let product = configuration.catalog.product(id)
        if product != nil { lastProduct = product }
        return product
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
        records.records(of: account)
    }

    /// Whether an account may make payments: its own setting, else the store-wide one.
    func paymentsAllowed(account: String) -> Bool {
        accountSettings[account]?.paymentsAllowed ?? settings.paymentsAllowed
    }

    /// Whether an account's purchases ask a parent: its own setting, else the store-wide one.
    func askToBuyEnabled(account: String) -> Bool {
        accountSettings[account]?.askToBuyEnabled ?? settings.askToBuyEnabled
    }

    /// The devices signed in to an account, in identifier order.
    func deviceIDs(of account: String) -> [String] {
        devices.ids(of: account)
    }

    /// Tells the other devices of the account of a purchase a device made: each keeps it among its
    /// ``Device/otherDevicePurchases`` until a front end finishes it. Returns the devices told, in identifier order,
    /// and the transaction they were told of; nothing when the grant made no new record (an owned non-consumable, the
    /// running subscription) or the account has no other device.
    mutating func tellOtherDevices(
        of transaction: DeviceTransaction, boughtOn device: Device, account: String
    ) -> (deviceIDs: [String], transaction: DeviceTransaction)? {
        // An account with one device (the common case, and every benchmark's) has nobody to tell: no record looked
        // up, no filtering, and the device says so without a look at the account's devices.
        guard transaction.state == .purchased, let recordID = transaction.recordID, recordID == transaction.id,
            device.sharesAccount || account != device.account
        else { return nil }
        let deviceID = device.id
        let accountDevices = devices.ids(of: account)
        guard accountDevices.count > 1, let record = records[recordID] else { return nil }
        let others = accountDevices.filter { $0 != deviceID }
        guard !others.isEmpty else { return nil }
        for id in others { devices[id]?.otherDevicePurchases.append(transaction) }
        if record.productType == .consumable { sharedRecordIDs.insert(recordID) }
        return (others, transaction)
    }
}

/// A weak reference to a connection, so that a front end that went away is not kept alive by its store. A class, so
/// that reading the reference loads it in place instead of copying the weak reference out of an array first.
final class WeakConnection: Sendable {
    weak let connection: DeviceConnection?

    init(connection: DeviceConnection) {
        self.connection = connection
    }
}
