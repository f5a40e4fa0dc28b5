import Foundation
import Ledger
import ReceiptKit
import StoreModels

/// The whole-file check of a state file, on demand (``SimulatedStore/checkStateFile()``): what opening a store no
/// longer does by default, since it reads the whole file (docs/durable-state.md, "How damage is noticed").
enum StateFileCheck {
    /// Checks the file at `path` through Ledger's read-only check, on a connection of its own, and never opens it for
    /// writing: SQLite's `quick_check` of every page, everything opening reads with every record (each table's rows,
    /// the counters, the journal entries after the tables and their replay), then every row of the table of records
    /// decoded and checked against the counters, each listed once by the index of its account's records when the file
    /// has one.
    /// - Throws: `stateCorrupt` naming the file (and the table and row, for a row), `stateUnavailable` for a missing or
    ///   empty file or one that holds no store, or what opening would throw.
    static func check(path: String) throws(StoreSimulatorError) {
        let absolute: String
        do {
            absolute = try LedgerDatabase.resolvedPath(of: path)
        } catch {
            throw StoreJournal.stateError(error, at: StateLocation(name: path, isFile: true))
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: absolute)[.size] as? Int) ?? nil
        guard let size, size > 0 else {
            throw StoreSimulatorError(
                .stateUnavailable,
                "\(absolute): \(size == nil ? "no such file" : "an empty file, which holds no store")")
        }
        var problem: RecordSource.Damage?
        do {
            _ = try LedgerDatabase(path: absolute, options: LedgerOptions(checksIntegrityOnOpen: true)) { txn in
                // The records first, by key, so that a row too damaged to say its identifier is named.
                if let next = try txn.metaInteger(forKey: StoreTables.Meta.nextTransactionID),
                    let lineItem = try txn.metaInteger(forKey: StoreTables.Meta.nextLineItemID)
                {
                    var checker = StoreState(configuration: .demo, retention: .all)
                    checker.nextTransactionID = UInt64(bitPattern: next)
                    checker.nextWebOrderLineItemID = UInt64(bitPattern: lineItem)
                    problem = try rows(txn, checker: checker)
                    if problem != nil { throw Checked() }
                }
                guard
                    try StoreJournal.read(
                        txn, at: StateLocation(name: absolute, isFile: true), onDemand: false, app: AppIdentity(),
                        signer: ReceiptSigner()) != nil
                else { throw NoStore() }
                throw Checked()
            }
        } catch is Checked {
            // Read and checked: the file was never opened for writing.
        } catch is NoStore {
            throw StoreSimulatorError(.stateUnavailable, "\(absolute) holds no OpenStoreKit store")
        } catch let error as StoreSimulatorError {
            throw error
        } catch {
            throw StoreJournal.stateError(error, at: StateLocation(name: absolute, isFile: true))
        }
        if let problem { throw problem.error(in: absolute) }
    }

    /// Ends the check once the file is read, before Ledger opens it for writing.
    private struct Checked: Error {}

    /// A database with no store in it.
    private struct NoStore: Error {}

    /// The first damaged row of the records and of the index, if any.
    private static func rows(_ txn: borrowing LedgerReadTransaction, checker: StoreState) throws
        -> RecordSource.Damage?
    {
        let table = StoreTables.Table.records.rawValue
        var accounts: [UInt64: String] = [:]
        var damage: RecordSource.Damage?
        var cache = StringCache()
        try txn.forEach(in: table) { key, bytes in
            guard damage == nil else { return }
            do throws(RecordSource.Damage) {
                let record = try RecordSource.decode(bytes, key: key, account: nil, checker: checker, cache: &cache)
                accounts[record.id] = record.account
            } catch {
                damage = error
            }
        }
        guard damage == nil else { return damage }
        guard try txn.metaInteger(forKey: AccountRecordIndex.completeKey) == 1 else { return nil }
        var listed = 0
        for account in try AccountRecordIndex.accounts(txn) {
            do {
                for id in try AccountRecordIndex.ids(txn, of: account) {
                    guard accounts[id] == account else {
                        return RecordSource.Damage(
                            table: AccountRecordIndex.collection, row: AccountRecordIndex.key(0, of: account),
                            problem: "transaction \(id) is listed under \(account), but the table of records files it "
                                + (accounts[id].map { "under \($0)" } ?? "nowhere"))
                    }
                    listed += 1
                }
            } catch let problem as RecordSource.Damage {
                return problem
            }
        }
        guard listed == accounts.count else {
            return RecordSource.Damage(
                table: AccountRecordIndex.collection, row: "",
                problem: "it lists \(listed) transactions, the table of records holds \(accounts.count)")
        }
        return nil
    }
}
