import Foundation
import Ledger
import StoreModels
import Synchronization

/// Where a durable store reads the records of the accounts it has not loaded yet: its state file's table of records
/// (``StoreTables/Table/records``), through the index of each account's records (``AccountRecordIndex``).
///
/// A store opened from its tables reads no record on opening; ``RecordTable`` asks its source for an account's
/// records the first time something needs them, and for a single row when only that row is asked for (a lookup by
/// identifier). The rows of an account not loaded are those of the file's tables as of the open: the store changes
/// only accounts it has loaded, so compaction never rewrites them meanwhile.
///
/// Every row read is checked as it is decoded (its fields, its key, its values against the counters as
/// ``StoreState/checkStoredValues()`` checks them on opening). The first row that cannot be read is kept as
/// ``failure`` (`stateCorrupt`, naming the file, the table and the row): the store's journal then records and commits
/// nothing more, so the file keeps what it held, and ``SimulatedStore/flush()``, ``SimulatedStore/compact()`` and
/// ``SimulatedStore/close()`` throw it; the row reads as absent.
final class RecordSource: Sendable {
    /// The state file's absolute path, for messages.
    let path: String
    /// The counters the rows are checked against (a state with the file's counters and no records).
    private let checker: StoreState
    private let database = Mutex<LedgerDatabase?>(nil)
    private let problem = Mutex<StoreSimulatorError?>(nil)

    init(path: String, checker: StoreState) {
        self.path = path
        self.checker = checker
    }

    /// Reads from `database` from now on (the file, once opened).
    func attach(_ database: LedgerDatabase) {
        self.database.withLock { $0 = database }
    }

    /// Reads nothing more (the store was closed, and its database with it): accounts not loaded read as empty.
    func detach() {
        database.withLock { $0 = nil }
    }

    /// The first row that could not be read, if any.
    var failure: StoreSimulatorError? { problem.withLock { $0 } }

    /// Whether the file can hold the record `id`: whether it was handed out before the store opened (a later one is
    /// new, and not looked for).
    func mayHold(_ id: UInt64) -> Bool { id < checker.nextTransactionID }

    /// The record with an identifier, as the file's tables hold it; `nil` when they hold none.
    func record(_ id: UInt64) -> TransactionRecord? {
        read { txn in
            var cache = StringCache()
            return try Self.row(txn, id: id, account: nil, checker: checker, cache: &cache)
        } ?? nil
    }

    /// Every record of an account, oldest first, as the file's tables hold them.
    func records(of account: String) -> [TransactionRecord] {
        read { txn in
            var cache = StringCache()
            var records: [TransactionRecord] = []
            for id in try AccountRecordIndex.ids(txn, of: account) {
                guard let record = try Self.row(txn, id: id, account: account, checker: checker, cache: &cache)
                else {
                    throw Damage(
                        table: StoreTables.Table.records.rawValue, row: RecordRow.key(id),
                        problem: "the row is missing, but the index of account \(account)'s records "
                            + "(\(AccountRecordIndex.collection)) lists it")
                }
                records.append(record)
            }
            return records
        } ?? []
    }

    /// The accounts the file's index lists, in no particular order.
    func accounts() -> [String] {
        read { txn in try AccountRecordIndex.accounts(txn) } ?? []
    }

    /// Runs `body` in a read transaction; a failure is kept (the first one) and gives `nil`.
    private func read<R>(_ body: (borrowing LedgerReadTransaction) throws -> R) -> R? {
        guard let database = database.withLock({ $0 }) else { return nil }
        do {
            do {
                return try database.read(body)
            } catch let error as LedgerError where error.code == .reentrantCall {
                // Asked from inside a transaction of the same database (an app's grant in `write`, say): read through
                // Ledger's read-only check, on a connection of its own, which sees the tables as committed (the
                // records change only at a compaction, which commits), and stop before it opens for writing.
                var result: R?
                do {
                    _ = try LedgerDatabase(path: path, options: LedgerOptions(checksIntegrityOnOpen: false)) { txn in
                        result = try body(txn)
                        throw ReadDone()
                    }
                } catch is ReadDone {
                    return result
                }
                return nil
            }
        } catch let damage as Damage {
            keep(
                damage.error(
                    in: path,
                    found: "It was found when the store first needed it (rows are checked as they are read); the "
                        + "store records nothing more, so the file keeps what it held."))
        } catch {
            keep(StoreJournal.stateError(error, at: StateLocation(name: path, isFile: true)))
        }
        return nil
    }

    private func keep(_ error: StoreSimulatorError) {
        problem.withLock { if $0 == nil { $0 = error } }
    }

    /// Reads and checks the row of a record; `account`: the account whose index listed it.
    private static func row(
        _ txn: borrowing LedgerReadTransaction, id: UInt64, account: String?, checker: StoreState,
        cache: inout StringCache
    ) throws -> TransactionRecord? {
        let key = RecordRow.key(id)
        guard let bytes = try txn.value(forKey: key, in: StoreTables.Table.records.rawValue) else { return nil }
        return try decode(bytes, key: key, account: account, checker: checker, cache: &cache)
    }

    /// Decodes the row `key` of the table of records and checks it: its fields, that it holds the transaction its key
    /// names (and, given `account`, one of that account), and its values against `checker`'s counters.
    static func decode(
        _ bytes: [UInt8], key: String, account: String?, checker: StoreState, cache: inout StringCache
    ) throws(Damage) -> TransactionRecord {
        let table = StoreTables.Table.records.rawValue
        let decoded = bytes.withUnsafeBytes { raw -> Result<TransactionRecord, JournalReader.Failure> in
            var reader = JournalReader(raw)
            return Result { () throws(JournalReader.Failure) in try RecordRow.decode(&reader, sharing: &cache) }
        }
        let record: TransactionRecord
        switch decoded {
        case .success(let value): record = value
        case .failure(let error): throw Damage(table: table, row: key, problem: "\(error)")
        }
        guard key == RecordRow.key(record.id) else {
            throw Damage(table: table, row: key, problem: "the row holds transaction \(record.id)")
        }
        if let account, record.account != account {
            throw Damage(
                table: table, row: key,
                problem: "the row is of account \(record.account), but the index lists it under \(account)")
        }
        do throws(StoreState.StoredValueProblem) {
            try checker.checkRecord(record)
        } catch {
            throw Damage(table: table, row: key, problem: "field \(error.field): \(error.problem)")
        }
        return record
    }

    /// Stops a read made through Ledger's read-only check once it has read.
    private struct ReadDone: Error {}

    /// A row that cannot be read.
    struct Damage: Error {
        var table: String
        var row: String
        var problem: String

        /// The store's error for it in the state file at `path`, with what `found` says of when it was found.
        func error(in path: String, found: String = "") -> StoreSimulatorError {
            StoreSimulatorError(
                .stateCorrupt,
                "\(path): table \(table), row \(row) cannot be read (\(problem)). \(found.isEmpty ? "" : found + " ")"
                    + "It was damaged or altered: move it aside (with its -wal and -shm files) and restore a backup, "
                    + "or start from a new path.")
        }
    }
}
