import Foundation
import Ledger
import StoreModels
import TestSupport
import Testing

@testable import StoreSimulator

/// Numbers and references of a state file out of their range: refused when the file is opened, naming the table, the
/// row and the field, with the file and its directory left as they were; never a trap later on.
@Suite("State file values")
struct StateFileValueTests {
    /// A value altered in a state file made by ``StateFileFormatTests/makeFullFile(at:)``.
    enum Alteration: String, CaseIterable, CustomTestStringConvertible {
        /// The next transaction identifier stored as -1 (read back as `UInt64.max`).
        case nextTransactionIDNegative
        /// The next transaction identifier so high that the identifiers it hands out would no longer fit the file.
        case nextTransactionIDPastLimit
        /// The next transaction identifier below identifiers already in the history.
        case nextTransactionIDReused
        /// The next line item identifier below one a record holds.
        case nextLineItemIDReused
        /// A subscription that counts `Int64.max` paid periods.
        case periodsPaidHuge
        /// A subscription that counts `Int64.max` periods since its anchor.
        case periodsSinceAnchorHuge
        /// A subscription that counts -1 failed billing attempts.
        case failedRetryAttemptsNegative
        /// A subscription whose latest transaction is an identifier never handed out.
        case latestRecordNeverIssued
        /// A subscription filed under another account's key.
        case subscriptionKeyMismatch
        /// A device's unfinished transaction with an identifier never handed out.
        case unfinishedNeverIssued
        /// A device filed under another device's identifier.
        case deviceKeyMismatch
        /// A subscription whose period ends in the year 300,000,000.
        case expiresAtFar
        /// Consumption information with a percentage above 100,000.
        case consumptionPercentageHuge
        /// Consumption information of a transaction identifier never handed out.
        case consumptionNeverIssued
        /// A mass extension filed under another request's key.
        case massExtensionKeyMismatch
        /// A mass extension that counts -1 subscriptions extended.
        case massExtensionCountNegative
        /// A mass extension that moved renewal dates by a negative interval.
        case massExtensionIntervalNegative

        var testDescription: String { rawValue }

        /// Words the refusal must contain: the table or meta key, and the field.
        var named: [String] {
            switch self {
            case .nextTransactionIDNegative: [StoreTables.Meta.nextTransactionID, "-1"]
            case .nextTransactionIDPastLimit: [StoreTables.Meta.nextTransactionID, "9223372036854775806"]
            case .nextTransactionIDReused: [StoreTables.Table.records.rawValue, "field id", "handed out again"]
            case .nextLineItemIDReused: [StoreTables.Table.records.rawValue, "field webOrderLineItemID"]
            case .periodsPaidHuge: [StoreTables.Table.subscriptions.rawValue, "row 0000000000", "field periodsPaid"]
            case .periodsSinceAnchorHuge: [StoreTables.Table.subscriptions.rawValue, "field periodsSinceAnchor"]
            case .failedRetryAttemptsNegative: [StoreTables.Table.subscriptions.rawValue, "field failedRetryAttempts"]
            case .latestRecordNeverIssued: [StoreTables.Table.subscriptions.rawValue, "field latestRecordID"]
            case .subscriptionKeyMismatch: [StoreTables.Table.subscriptions.rawValue, "field key"]
            case .unfinishedNeverIssued: [StoreTables.Table.devices.rawValue, "row device", "unfinished"]
            case .deviceKeyMismatch: [StoreTables.Table.devices.rawValue, "row other", "field id"]
            case .expiresAtFar: [StoreTables.Table.subscriptions.rawValue, "field expiresAt"]
            case .consumptionPercentageHuge: [StoreTables.Table.consumption.rawValue, "field consumptionPercentage"]
            case .consumptionNeverIssued:
                [StoreTables.Table.consumption.rawValue, "field transaction", "handed out again"]
            case .massExtensionKeyMismatch:
                [StoreTables.Table.massExtensions.rawValue, "row other", "requestIdentifier"]
            case .massExtensionCountNegative: [StoreTables.Table.massExtensions.rawValue, "field succeededCount"]
            case .massExtensionIntervalNegative: [StoreTables.Table.massExtensions.rawValue, "field interval"]
            }
        }

        /// Alters the closed state file at `path`.
        func apply(to path: String) throws {
            let database = try LedgerDatabase(path: path)
            let records = try database.read { txn in try txn.all(in: StoreTables.Table.records.rawValue) }
            let ids = records.compactMap { UInt64($0.key) }.sorted()
            switch self {
            case .nextTransactionIDNegative:
                try database.write { txn in try txn.setMeta(Int64(-1), forKey: StoreTables.Meta.nextTransactionID) }
            case .nextTransactionIDPastLimit:
                try database.write { txn in
                    try txn.setMeta(Int64.max - 1, forKey: StoreTables.Meta.nextTransactionID)
                }
            case .nextTransactionIDReused:
                try database.write { txn in
                    try txn.setMeta(Int64(ids[0]), forKey: StoreTables.Meta.nextTransactionID)
                }
            case .nextLineItemIDReused:
                try database.write { txn in try txn.setMeta(Int64(1), forKey: StoreTables.Meta.nextLineItemID) }
            case .periodsPaidHuge:
                try Self.alterSubscription(database) { $0["periodsPaid"] = Int64.max }
            case .periodsSinceAnchorHuge:
                try Self.alterSubscription(database) { $0["periodsSinceAnchor"] = Int64.max }
            case .failedRetryAttemptsNegative:
                try Self.alterSubscription(database) { $0["failedRetryAttempts"] = -1 }
            case .latestRecordNeverIssued:
                try Self.alterSubscription(database) { $0["latestRecordID"] = Int64.max - 1 }
            case .subscriptionKeyMismatch:
                try Self.alterSubscription(database) { $0["account"] = "mallory" }
            case .expiresAtFar:
                try Self.alterSubscription(database) { $0["expiresAt"] = 1e16 }
            case .unfinishedNeverIssued:
                try Self.alterRow(database, .devices, "device") { device in
                    var unfinished = try #require(device["unfinished"] as? [[String: Any]])
                    var first = try #require(unfinished.first)
                    first["id"] = Int64.max - 1
                    unfinished[0] = first
                    device["unfinished"] = unfinished
                    device["startedIn"] = []
                }
            case .deviceKeyMismatch:
                let bytes = try #require(
                    try database.read { txn in try txn.value(forKey: "device", in: StoreTables.Table.devices.rawValue) }
                )
                try database.write { txn in try txn.put(bytes, forKey: "other", in: StoreTables.Table.devices.rawValue)
                }
            case .consumptionPercentageHuge:
                let key = try #require(
                    try database.read { txn in try txn.all(in: StoreTables.Table.consumption.rawValue) }.first?.key)
                try Self.alterRow(database, .consumption, key) { $0["consumptionPercentage"] = 100_001 }
            case .consumptionNeverIssued:
                let row = try #require(
                    try database.read { txn in try txn.all(in: StoreTables.Table.consumption.rawValue) }.first)
                try database.write { txn in
                    try txn.put(
                        row.value, forKey: RecordRow.key(UInt64(Int64.max - 1)),
                        in: StoreTables.Table.consumption.rawValue)
                }
            case .massExtensionKeyMismatch:
                let row = try #require(
                    try database.read { txn in try txn.all(in: StoreTables.Table.massExtensions.rawValue) }.first)
                try database.write { txn in
                    _ = try txn.remove(forKey: row.key, in: StoreTables.Table.massExtensions.rawValue)
                    try txn.put(row.value, forKey: "other", in: StoreTables.Table.massExtensions.rawValue)
                }
            case .massExtensionCountNegative:
                try Self.alterRow(database, .massExtensions, Self.massKey) { $0["succeededCount"] = -1 }
            case .massExtensionIntervalNegative:
                try Self.alterRow(database, .massExtensions, Self.massKey) { $0["interval"] = -86_400 }
            }
        }

        /// The key of the mass extension ``StateFileFormatTests/makeFullFile(at:)`` makes.
        static let massKey = "com.example.premium.monthly\nfull"

        /// Alters the state of the first subscription's row.
        private static func alterSubscription(_ database: LedgerDatabase, _ body: (inout [String: Any]) -> Void) throws
        {
            try alterRow(database, .subscriptions, StoreTables.slotKey(0)) { row in
                var state = try #require(row["state"] as? [String: Any])
                body(&state)
                row["state"] = state
            }
        }

        /// Rewrites a JSON row of a table.
        private static func alterRow(
            _ database: LedgerDatabase, _ table: StoreTables.Table, _ key: String,
            _ body: (inout [String: Any]) throws -> Void
        ) throws {
            let bytes = try #require(try database.read { txn in try txn.value(forKey: key, in: table.rawValue) })
            var row = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
            try body(&row)
            let altered = Array(try JSONSerialization.data(withJSONObject: row))
            try database.write { txn in try txn.put(altered, forKey: key, in: table.rawValue) }
        }
    }

    @Test(
        "A value out of its range or referring to nothing is refused at open, naming where it is",
        arguments: Alteration.allCases)
    func refused(alteration: Alteration) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        try StateFileFormatTests.makeFullFile(at: path)
        try alteration.apply(to: path)
        // A record's row is checked when its account is first read (StoreRecordsOnDemandTests), or on opening with
        // the whole-file check.
        let durability =
            alteration == .nextLineItemIDReused ? StoreDurability(ledger: LedgerOptions()) : StoreDurability()
        let error = try StateFileTests.expectRefused(.stateCorrupt, path, in: directory, durability: durability)
        for words in alteration.named {
            #expect(error?.detail.contains(words) == true, "\(words): \(error?.detail ?? "")")
        }
        #expect(error?.detail.contains("restore a backup") == true, "\(error?.detail ?? "")")
    }

    @Test("A journal entry at or below the sequence the tables were brought up to is refused, not skipped")
    func throughRaised() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        try StateFileFormatTests.makeFullFile(at: path)
        do {
            let store = try SimulatedStore(
                statePath: path, durability: StoreDurability(compactEvery: nil), lane: .manual)
            let (device, listener) = store.silentConnection("device")
            defer { withExtendedLifetime((device, listener)) {} }
            let transaction = device.submitNow(PaymentRequest(productID: "com.example.pro"))
            device.processNow(transaction.id)
            try store.close()
        }
        do {
            let database = try LedgerDatabase(path: path)
            let last = try #require(try database.read { txn in try txn.lastLogSequence(in: StoreJournal.logName) })
            try database.write { txn in try txn.setMeta(last, forKey: StoreTables.Meta.through) }
        }
        let error = try StateFileTests.expectRefused(.stateCorrupt, path, in: directory)
        #expect(error?.detail.contains("journal entry") == true, "\(error?.detail ?? "")")
        #expect(error?.detail.contains(StoreTables.Meta.through) == true, "\(error?.detail ?? "")")
    }

    @Test("A file of format 1 whose snapshot holds a counter below its history is refused too")
    func firstFormatSnapshotChecked() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let store = try SimulatedStore(
            statePath: path, durability: StateFileFormatTests.firstFormat(), lane: .manual)
        try store.buyProduct("com.example.pro")
        try store.compact()
        try store.close()
        do {
            let database = try LedgerDatabase(path: path)
            let key = StoreJournal.snapshotKey
            let bytes = try #require(try database.read { txn in try txn.value(forKey: key, in: StoreJournal.logName) })
            var snapshot = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
            snapshot["nextTransactionID"] = 1
            let altered = Array(try JSONSerialization.data(withJSONObject: snapshot))
            try database.write { txn in try txn.put(altered, forKey: key, in: StoreJournal.logName) }
        }
        let error = try StateFileTests.expectRefused(.stateCorrupt, path, in: directory)
        #expect(error?.detail.contains("snapshot") == true, "\(error?.detail ?? "")")
        #expect(error?.detail.contains("handed out again") == true, "\(error?.detail ?? "")")
    }

    @Test("Counts of periods and attempts stop at Int.max instead of trapping, and so does a period advanced that far")
    func countsNeverTrap() {
        #expect(StoreState.incremented(Int.max) == Int.max)
        #expect(StoreState.incremented(41) == 42)
        let start = Date(timeIntervalSinceReferenceDate: 0)
        for unit in [SubscriptionPeriod.Unit.day, .week, .month, .year] {
            #expect(SubscriptionPeriod(value: 3, unit: unit).advance(start, by: Int.max) == start)
        }
        #expect(SubscriptionPeriod(value: 1, unit: .day).advance(start, by: 2) == start.addingTimeInterval(172_800))
    }
}

extension StateFileValueTests {
    @Test("A renewal date cannot be extended past the clock's last instant, so a state file never holds one it refuses")
    func extensionStaysInRange() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let store = try SimulatedStore(statePath: path, lane: .manual)
        let bought = try store.buyProduct("com.example.premium.monthly")
        let error = #expect(throws: StoreSimulatorError.self) {
            try store.extendRenewalDate(originalID: bought.originalID, by: 1e300)
        }
        #expect(error?.code == .dateOutOfRange)
        try store.extendRenewalDate(originalID: bought.originalID, by: 86_400)
        try store.compact()
        try store.close()
        let reopened = try SimulatedStore(statePath: path, lane: .manual)
        #expect(reopened.subscriptions().first?.expiresAt == bought.expirationDate?.addingTimeInterval(86_400))
        try reopened.close()
    }
}
