import Foundation
import Ledger
import StoreModels

/// A store's state as tables of a state file (format 2, docs/durable-state.md): a row per record, device, subscription,
/// account with its own settings, account in a family, used offer nonce and expired receipt, transaction with
/// consumption information and mass renewal-date extension, one row each for the catalog, the settings and the scripted
/// outcomes, and meta values for the counters, the retention, the store time and the journal position the tables
/// include.
///
/// Opening reads the tables directly (no replay of the history) and then replays the few journal entries written after
/// them. Compaction (``write(_:state:time:through:)``) brings the tables up to date with the rows the state noted as
/// written since the last one (``RecordTable``, ``SubscriptionBook``, ``DeviceDirectory``, ``TrackedDictionary``,
/// ``TrackedSet``), and the few rows of values and counters whose bytes differ from what the file holds.
struct StoreTables: Sendable {
    /// The collections (tables) of a store, in the order opening reads them.
    enum Table: String, CaseIterable {
        case values = "openstorekit.store.values"
        case records = "openstorekit.store.records"
        case devices = "openstorekit.store.devices"
        case subscriptions = "openstorekit.store.subscriptions"
        case accounts = "openstorekit.store.accounts"
        case nonces = "openstorekit.store.nonces"
        case expiredReceipts = "openstorekit.store.expired-receipts"
        /// An account's family: the key is the account, the value the family's name in UTF-8. Absent from files
        /// written before Family Sharing, which read as having no families.
        case families = "openstorekit.store.families"
        /// The consumption information sent for a transaction: the key is the transaction (``RecordRow/key(_:)``), the
        /// value ``ConsumptionInformation`` as JSON. Absent from files written before it, which read as having none.
        case consumption = "openstorekit.store.consumption"
        /// A mass renewal-date extension: the key is its product and request identifier
        /// (``MassRenewalExtension/key(productID:requestIdentifier:)``), the value ``MassRenewalExtension`` as JSON.
        /// Absent from files written before it, which read as having none.
        case massExtensions = "openstorekit.store.mass-extensions"
        /// What a customer who opened the cancellation flow was shown (``RetentionMessaging/shown``), one row each,
        /// written once: the key is its place, 20 digits from 0, the value ``ShownRetentionMessage`` as JSON. Absent
        /// from files written before it, which read as having shown nothing (or hold it in the Retention Messaging row).
        case retentionShown = "openstorekit.store.retention-shown"
    }

    /// Meta keys of the scalar parts.
    enum Meta {
        static let through = "openstorekit.store.through"
        static let time = "openstorekit.store.time"
        static let retention = "openstorekit.store.retention"
        static let nextTransactionID = "openstorekit.store.next-transaction-id"
        static let nextLineItemID = "openstorekit.store.next-line-item-id"
        static let subscriptionSequence = "openstorekit.store.subscription-sequence"
    }

    /// The keys of the rows of ``Table/values``.
    private enum Value: String, CaseIterable {
        case configuration, settings, scripted
        /// The app's ``RetentionMessaging`` as JSON; absent from files written before it (and while nothing is set
        /// up), which read as having none.
        case retentionMessaging
    }

    /// The value of a row whose key is all it says (a used nonce, a device with an expired receipt).
    private static let present: [UInt8] = [1]

    /// What the file holds for the values and counters, compared with the state's at each compaction so that only
    /// those that changed are written (a few rows; the tables of rows follow the state's notes of what changed).
    private var values: [String: [UInt8]] = [:]
    /// How many of ``RetentionMessaging/shown`` the file holds as rows of ``Table/retentionShown``: a compaction writes
    /// the ones after them.
    private var shownWritten = 0
    private var counters: [String: Int64] = [:]
    /// Whether the file's index of each account's records (``AccountRecordIndex``) lists every record.
    private(set) var indexComplete = false

    // MARK: Reading

    /// What ``read(_:at:)`` found.
    struct Loaded {
        var state: StoreState
        var tables: StoreTables
        /// The journal sequence the tables include.
        var through: Int64
        /// The store time they were written at.
        var time: Date
    }

    /// Reads a store from its tables, with change tracking on. With `onDemand`, and a file whose index of each
    /// account's records is complete, the records are not read: the state's ``RecordTable`` reads each account's when
    /// first needed (``RecordSource``, which ``StoreJournal`` attaches to the database once it is open); otherwise every
    /// record is read (and checked) now.
    /// - Throws: `stateCorrupt` naming the file (or database), the table and the row that cannot be read.
    static func read(
        _ txn: borrowing LedgerReadTransaction, at location: StateLocation, onDemand: Bool
    ) throws(StoreSimulatorError) -> Loaded {
        var tables = StoreTables()
        var table = Table.values
        var row = ""
        do {
            let through = try meta(txn, Meta.through, &tables)
            guard through >= 0 else {
                throw StoreState.StoredValueProblem(
                    table: "meta \(Meta.through)", field: "value", problem: "\(through) is negative")
            }
            let nextTransactionID = UInt64(bitPattern: try meta(txn, Meta.nextTransactionID, &tables))
            let nextLineItemID = UInt64(bitPattern: try meta(txn, Meta.nextLineItemID, &tables))
            let subscriptionSequence = UInt64(bitPattern: try meta(txn, Meta.subscriptionSequence, &tables))
            guard let seconds = try txn.metaDouble(forKey: Meta.time) else { throw Missing(what: "meta \(Meta.time)") }
            guard abs(seconds) <= StoreState.storedDateLimit else {
                throw StoreState.StoredValueProblem(
                    table: "meta \(Meta.time)", field: "value",
                    problem: "\(seconds) seconds since 2001-01-01 is not a store time")
            }
            let retention: HistoryRetention
            switch try txn.metaString(forKey: Meta.retention) {
            case "all": retention = .all
            case "receiptOnly": retention = .receiptOnly
            case let other: throw Missing(what: "meta \(Meta.retention) (found \(other ?? "nothing"))")
            }
            row = Value.configuration.rawValue
            let configuration = try value(txn, .configuration, StoredConfiguration.self, &tables)
            var state = StoreState(configuration: configuration.configuration, retention: retention)
            row = Value.settings.rawValue
            state.settings = try value(txn, .settings, StoreSettings.self, &tables)
            row = Value.scripted.rawValue
            state.scripted = []
            for entry in try value(txn, .scripted, [StoreSnapshot.Scripted].self, &tables) {
                state.scripted.append((entry.productID, try entry.outcome.outcome()))
            }
            row = Value.retentionMessaging.rawValue
            if let bytes = try txn.value(forKey: Value.retentionMessaging.rawValue, in: Table.values.rawValue) {
                tables.values[Value.retentionMessaging.rawValue] = bytes
                state.retentionMessaging = try JSONDecoder().decode(RetentionMessaging.self, from: Data(bytes))
            }
            state.nextTransactionID = nextTransactionID
            state.nextWebOrderLineItemID = nextLineItemID

            tables.indexComplete = try txn.metaInteger(forKey: AccountRecordIndex.completeKey) == 1
            table = .records
            row = ""
            if onDemand, tables.indexComplete {
                var checker = StoreState(configuration: state.configuration, retention: retention)
                checker.nextTransactionID = nextTransactionID
                checker.nextWebOrderLineItemID = nextLineItemID
                state.records.readOnDemand(from: RecordSource(path: location.name, checker: checker))
                // The one check of the records made on opening: the next identifier is not taken (a counter put back
                // would hand out an identifier again; each row is checked against it when first read).
                row = RecordRow.key(nextTransactionID)
                if try txn.containsValue(forKey: row, in: Table.records.rawValue) {
                    throw StoreState.StoredValueProblem(
                        table: Table.records.rawValue, row: row, field: "id",
                        problem: "\(nextTransactionID) is not below the next transaction identifier "
                            + "\(nextTransactionID) (meta \(Meta.nextTransactionID)): it would be handed out again")
                }
            }
            if state.records.source == nil {
                var records = RecordTable()
                records.reserveCapacity(try txn.count(in: Table.records.rawValue))
                var cache = StringCache()
                try txn.forEachValueByScan(in: Table.records.rawValue) { bytes in
                    var reader = JournalReader(bytes)
                    let record: TransactionRecord
                    do throws(JournalReader.Failure) {
                        record = try RecordRow.decode(&reader, sharing: &cache)
                    } catch {
                        var start = JournalReader(bytes)
                        if let id = try? start.uint64("the identifier") { row = RecordRow.key(id) }
                        throw error
                    }
                    guard records[record.id] == nil else {
                        row = RecordRow.key(record.id)
                        throw Unreadable(description: "two rows hold transaction \(record.id)")
                    }
                    records[record.id] = record
                }
                state.records = records
            }

            table = .devices
            var devices: [StoreSnapshot.Device] = []
            try txn.forEach(in: Table.devices.rawValue) { key, bytes in
                row = key
                let device = try JSONDecoder().decode(StoreSnapshot.Device.self, from: Data(bytes))
                try device.checkStored(key: key)
                devices.append(device)
            }
            for device in devices { state.devices[device.id] = device.restored() }
            state.sharedRecordIDs = StoreSnapshot.sharedRecordIDs(devices)

            table = .subscriptions
            var slots: [SubscriptionBook.SlotRow] = []
            try txn.forEach(in: Table.subscriptions.rawValue) { key, bytes in
                row = key
                guard key == Self.slotKey(slots.count) else { throw Missing(what: "slot \(slots.count)") }
                slots.append(try JSONDecoder().decode(SubscriptionBook.SlotRow.self, from: Data(bytes)))
            }
            state.subscriptions = SubscriptionBook(rows: slots, nextSequence: subscriptionSequence)

            table = .accounts
            try txn.forEach(in: Table.accounts.rawValue) { key, bytes in
                row = key
                state.accountSettings[key] = try JSONDecoder().decode(AccountSettings.self, from: Data(bytes))
            }
            table = .families
            try txn.forEach(in: Table.families.rawValue) { key, bytes in
                row = key
                guard let family = String(validating: bytes, as: UTF8.self), SimulatedStore.isFamilyName(family)
                else {
                    throw Unreadable(description: "the family's name is not UTF-8 text without control characters")
                }
                state.families[key] = family
            }
            table = .consumption
            try txn.forEach(in: Table.consumption.rawValue) { key, bytes in
                row = key
                guard key.utf8.count == 20, key.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let id = UInt64(key)
                else { throw Unreadable(description: "the key is not a transaction identifier of 20 digits") }
                state.consumption[id] = try JSONDecoder().decode(ConsumptionInformation.self, from: Data(bytes))
            }
            table = .massExtensions
            try txn.forEach(in: Table.massExtensions.rawValue) { key, bytes in
                row = key
                state.massExtensions[key] = try JSONDecoder().decode(MassRenewalExtension.self, from: Data(bytes))
            }
            table = .retentionShown
            var shown: [ShownRetentionMessage] = []
            try txn.forEach(in: Table.retentionShown.rawValue) { key, bytes in
                row = key
                guard key == RecordRow.key(UInt64(shown.count)) else {
                    throw Unreadable(
                        description: "the key is not the next place, \(RecordRow.key(UInt64(shown.count)))")
                }
                shown.append(try JSONDecoder().decode(ShownRetentionMessage.self, from: Data(bytes)))
            }
            if state.retentionMessaging.shown.isEmpty {
                state.retentionMessaging.shown = shown
                tables.shownWritten = shown.count
            }
            table = .nonces
            try txn.forEach(in: Table.nonces.rawValue) { key, _ in state.usedNonces.insert(key) }
            table = .expiredReceipts
            try txn.forEach(in: Table.expiredReceipts.rawValue) { key, _ in state.receiptExpired.insert(key) }

            // Before anything runs on it (the journal's replay): a value out of range could make it trap, and an
            // identifier at or past its counter would be handed out again.
            row = ""
            try state.checkStoredValues()
            state.trackChanges()
            return Loaded(
                state: state, tables: tables, through: through, time: Date(timeIntervalSinceReferenceDate: seconds))
        } catch let error as LedgerError {
            throw StoreSimulatorError(
                error.code == .corrupt ? .stateCorrupt : .stateUnavailable,
                "\(location.name): reading table \(table.rawValue) failed: \(error.detail) \(location.unchanged)")
        } catch let problem as StoreState.StoredValueProblem {
            throw StoreSimulatorError(
                .stateCorrupt,
                "\(location.name): \(problem). \(location.unchanged) It was damaged or altered: \(location.recovery).")
        } catch {
            let place = row.isEmpty ? "" : ", row \(row)"
            throw StoreSimulatorError(
                .stateCorrupt,
                "\(location.name): table \(table.rawValue)\(place) cannot be read (\(error)). \(location.unchanged) "
                    + "It was damaged, or written by a newer release: open it with that release, or "
                    + "\(location.recovery).")
        }
    }

    private static func meta(
        _ txn: borrowing LedgerReadTransaction, _ key: String, _ tables: inout StoreTables
    ) throws -> Int64 {
        guard let value = try txn.metaInteger(forKey: key) else { throw Missing(what: "meta \(key)") }
        tables.counters[key] = value
        return value
    }

    private static func value<T: Decodable>(
        _ txn: borrowing LedgerReadTransaction, _ key: Value, _ type: T.Type, _ tables: inout StoreTables
    ) throws -> T {
        guard let bytes = try txn.value(forKey: key.rawValue, in: Table.values.rawValue) else {
            throw Missing(what: "row \(key.rawValue)")
        }
        tables.values[key.rawValue] = bytes
        return try JSONDecoder().decode(type, from: Data(bytes))
    }

    /// A part of the tables that is missing.
    private struct Missing: Error, CustomStringConvertible {
        let what: String
        var description: String { "\(what) is missing" }
    }

    /// A part of the tables that is there but cannot be read.
    private struct Unreadable: Error, CustomStringConvertible {
        let description: String
    }

    /// The key of a subscription slot's row: its number, zero-padded so that keys sort by slot.
    static func slotKey(_ slot: Int) -> String {
        let digits = String(slot)
        return String(repeating: "0", count: max(0, 10 - digits.count)) + digits
    }

    // MARK: Writing

    /// Writes every table of `state` (a new file, or a file of format 1 being migrated), with nothing in the file
    /// before; the state's noted changes are dropped, being written.
    static func create(
        _ txn: borrowing LedgerWriteTransaction, state: inout StoreState, time: Date, through: Int64
    ) throws -> StoreTables {
        var tables = StoreTables()
        let encoder = makeEncoder()
        _ = state.records.takeChanges()
        _ = state.subscriptions.takeChanges()
        for record in state.records.values { try putRecord(txn, record) }
        try tables.writeIndex(txn, state: &state)
        for (slot, row) in state.subscriptions.rows(nil) {
            try txn.put(try json(row, encoder), forKey: slotKey(slot), in: Table.subscriptions.rawValue)
        }
        try writeRows(txn, state: &state, all: true, encoder: encoder)
        try tables.writeShown(txn, state: state, encoder: encoder)
        try tables.writeValues(txn, state: state, time: time, through: through, encoder: encoder)
        return tables
    }

    /// Brings the tables up to date with `state` as of journal sequence `through` and store time `time`: the rows the
    /// state noted as written since the last call (records, subscription slots, devices, accounts, families,
    /// consumption information, mass extensions, nonces, expired receipts), and the few rows of values and counters
    /// whose bytes changed. What it costs follows the rows that changed, not the rows the tables hold.
    mutating func write(
        _ txn: borrowing LedgerWriteTransaction, state: inout StoreState, time: Date, through: Int64
    ) throws {
        let encoder = Self.makeEncoder()
        let records = state.records.takeChanges()
        if records.cleared { _ = try txn.removeAll(in: Table.records.rawValue) }
        let changed = records.cleared ? Set(state.records.values.map(\.id)).union(records.changed) : records.changed
        for id in changed {
            // Every identifier changed is of an account loaded (a write loads its account first): read in memory.
            if let record = state.records[id] {
                try Self.putRecord(txn, record)
            } else {
                _ = try txn.remove(forKey: RecordRow.key(id), in: Table.records.rawValue)
            }
        }
        if records.cleared || !indexComplete {
            try writeIndex(txn, state: &state)
        } else {
            for change in state.records.takeIndexChanges() {
                try AccountRecordIndex.write(txn, account: change.account, ids: change.ids, from: change.from)
            }
        }
        let subscriptions = state.subscriptions.takeChanges()
        if subscriptions.cleared { _ = try txn.removeAll(in: Table.subscriptions.rawValue) }
        for (slot, row) in state.subscriptions.rows(subscriptions.cleared ? nil : subscriptions.slots) {
            try txn.put(try Self.json(row, encoder), forKey: Self.slotKey(slot), in: Table.subscriptions.rawValue)
        }
        try Self.writeRows(txn, state: &state, all: false, encoder: encoder)
        try writeShown(txn, state: state, encoder: encoder)
        try writeValues(txn, state: state, time: time, through: through, encoder: encoder)
    }

    /// Writes the rows of what customers were shown since the last call: the list only grows, so those after the ones
    /// written (all of them again if it is shorter than what was written, as after a state replaced by another).
    private mutating func writeShown(
        _ txn: borrowing LedgerWriteTransaction, state: StoreState, encoder: JSONEncoder
    ) throws {
        let shown = state.retentionMessaging.shown
        if shown.count < shownWritten {
            _ = try txn.removeAll(in: Table.retentionShown.rawValue)
            shownWritten = 0
        }
        for index in shownWritten..<shown.count {
            try txn.put(
                try Self.json(shown[index], encoder), forKey: RecordRow.key(UInt64(index)),
                in: Table.retentionShown.rawValue)
        }
        shownWritten = shown.count
    }

    /// Writes the index of each account's records whole (a new file, a file written before the index, a history
    /// cleared) from the records in memory, which are then every record, and marks it complete.
    mutating func writeIndex(_ txn: borrowing LedgerWriteTransaction, state: inout StoreState) throws {
        precondition(state.records.isComplete, "the index is written whole from every record")
        _ = state.records.takeIndexChanges()
        _ = try txn.removeAll(in: AccountRecordIndex.collection)
        for (account, ids) in state.records.allAccounts {
            try AccountRecordIndex.write(txn, account: account, ids: ids, from: 0)
        }
        try txn.setMeta(Int64(1), forKey: AccountRecordIndex.completeKey)
        indexComplete = true
    }

    private static func putRecord(_ txn: borrowing LedgerWriteTransaction, _ record: TransactionRecord) throws {
        var writer = JournalWriter()
        RecordRow.encode(record, into: &writer)
        try txn.put(writer.bytes, forKey: RecordRow.key(record.id), in: Table.records.rawValue)
    }

    /// Writes the rows of the devices, accounts, families, consumption information, mass extensions, nonces and
    /// expired receipts that the state noted as changed (`all`: every row, into empty tables), removing those that no
    /// longer hold anything, and forgets the notes.
    private static func writeRows(
        _ txn: borrowing LedgerWriteTransaction, state: inout StoreState, all: Bool, encoder: JSONEncoder
    ) throws {
        // Devices are added, never removed (``DeviceDirectory``).
        let devices = state.devices.takeChanges()
        for device in all ? Array(state.devices.values) : devices {
            let bytes = try json(StoreSnapshot.Device(id: device.id, device), encoder)
            try txn.put(bytes, forKey: device.id, in: Table.devices.rawValue)
        }
        func jsonRow(_ value: some Encodable) throws -> [UInt8] { try json(value, encoder) }
        try sync(txn, &state.accountSettings, all: all, in: .accounts, key: { $0 }, bytes: jsonRow)
        try sync(txn, &state.families, all: all, in: .families, key: { $0 }, bytes: { Array($0.utf8) })
        try sync(txn, &state.consumption, all: all, in: .consumption, key: RecordRow.key, bytes: jsonRow)
        try sync(txn, &state.massExtensions, all: all, in: .massExtensions, key: { $0 }, bytes: jsonRow)
        try sync(txn, &state.usedNonces, all: all, in: .nonces)
        try sync(txn, &state.receiptExpired, all: all, in: .expiredReceipts)
    }

    /// Writes the row of each key written since the last call (`all`: of every key), or removes it if the key holds
    /// nothing now.
    private static func sync<Key, Value>(
        _ txn: borrowing LedgerWriteTransaction, _ part: inout TrackedDictionary<Key, Value>, all: Bool,
        in table: Table, key: (Key) -> String, bytes: (Value) throws -> [UInt8]
    ) throws {
        let changed = part.takeChanges()
        for written in all ? Set(part.keys) : changed {
            if let value = part[written] {
                try txn.put(try bytes(value), forKey: key(written), in: table.rawValue)
            } else {
                _ = try txn.remove(forKey: key(written), in: table.rawValue)
            }
        }
    }

    /// Writes the row of each element inserted since the last call (`all`: of every element) and removes the row of
    /// each one removed.
    private static func sync(
        _ txn: borrowing LedgerWriteTransaction, _ part: inout TrackedSet<String>, all: Bool, in table: Table
    ) throws {
        let changed = part.takeChanges()
        for key in all ? part.elements : changed {
            if part.contains(key) {
                try txn.put(present, forKey: key, in: table.rawValue)
            } else {
                _ = try txn.remove(forKey: key, in: table.rawValue)
            }
        }
    }

    /// Writes the counters, the store time, the retention, and the rows of values (configuration, settings, scripted
    /// outcomes) whose bytes differ from what the file holds.
    private mutating func writeValues(
        _ txn: borrowing LedgerWriteTransaction, state: StoreState, time: Date, through: Int64, encoder: JSONEncoder
    ) throws {
        for (key, value) in [
            (Meta.through, through), (Meta.nextTransactionID, Int64(bitPattern: state.nextTransactionID)),
            (Meta.nextLineItemID, Int64(bitPattern: state.nextWebOrderLineItemID)),
            (Meta.subscriptionSequence, Int64(bitPattern: state.subscriptions.sequenceCounter)),
        ] where counters[key] != value {
            try txn.setMeta(value, forKey: key)
            counters[key] = value
        }
        try txn.setMeta(time.timeIntervalSinceReferenceDate, forKey: Meta.time)
        try txn.setMeta(state.retention == .all ? "all" : "receiptOnly", forKey: Meta.retention)

        let scripted = state.scripted.map {
            StoreSnapshot.Scripted(productID: $0.productID, outcome: StoreSnapshot.ScriptedOutcomeRecord($0.outcome))
        }
        var rows = [
            (Value.configuration, try Self.json(StoredConfiguration(state.configuration), encoder)),
            (.settings, try Self.json(state.settings, encoder)), (.scripted, try Self.json(scripted, encoder)),
        ]
        if state.retentionMessaging != RetentionMessaging() || values[Value.retentionMessaging.rawValue] != nil {
            rows.append((.retentionMessaging, try Self.json(state.retentionMessaging, encoder)))
        }
        for (key, bytes) in rows where values[key.rawValue] != bytes {
            try txn.put(bytes, forKey: key.rawValue, in: Table.values.rawValue)
            values[key.rawValue] = bytes
        }
    }

    /// The JSON of the rows kept as JSON, keys sorted so that equal values give equal bytes.
    private static func json(_ value: some Encodable, _ encoder: JSONEncoder) throws -> [UInt8] {
        Array(try encoder.encode(value))
    }

    private static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }
}
