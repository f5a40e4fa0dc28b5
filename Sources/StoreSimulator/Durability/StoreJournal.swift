import Foundation
import Ledger
import ReceiptKit
import StoreModels
import Synchronization

/// The journal of a durable store: appends each change (a ``StoreCommand``) to the state file before the store
/// applies it, and serializes changes so that the journal's order is the order they were applied in.
///
/// **The gate.** Every public method of a durable store that changes state holds the journal's gate (a recursive
/// lock) from before its command is recorded until it returns. Two changes from different threads therefore never
/// interleave, so replaying the journal in order applies them in the order they happened; a change made from inside
/// a callback of another change (an observer adding a payment while it hears of a purchase) runs on the same thread
/// and is recorded after the change whose callback it runs in, which is also the order it is applied in. The gate is
/// taken before the store's state lock and never while holding it.
///
/// **Failures.** If recording a change fails (a full disk, an I/O error), the store goes on in memory but records
/// nothing more, so that the file keeps a consistent prefix of the history; ``failure`` says why, and
/// ``SimulatedStore/flush()`` and ``SimulatedStore/close()`` throw it.
final class StoreJournal: @unchecked Sendable {
    // @unchecked: every mutable property is read and written only while `gate` is held.

    /// The name of the store's log, records collection and meta keys in the database.
    static let logName = "openstorekit.store"
    /// The meta key of the journal's format version.
    static let formatKey = "openstorekit.store.format"
    /// The key of the snapshot (format 1) in the records collection ``logName``.
    static let snapshotKey = "snapshot"
    /// The store format this release writes: 2, the state in tables (``StoreTables``) and the journal entries
    /// written since they were brought up to date. Format 1 (a JSON snapshot and the journal since it) is read and
    /// migrated.
    static let currentFormat: Int64 = 2

    /// Paths of the state files open in this process: a file is open in one store at a time.
    private static let openPaths = Mutex<Set<String>>([])

    /// The absolute path of the state file.
    let path: String
    let durability: StoreDurability
    /// The store's clock; each command is recorded with its time.
    let clock: ManualClock

    private let gate = NSRecursiveLock()
    /// This process's ownership of the file, released by ``close()`` (or when the journal goes away).
    private var ownership: StateFileLock?
    private var database: LedgerDatabase?
    private var committer: LedgerGroupCommitter?
    private var failureValue: StoreSimulatorError?
    private var writer = JournalWriter()
    private var depth = 0
    /// Whether the change in progress (the outermost one) recorded anything.
    private var recordedInChange = false
    private var lastSequence: Int64
    private var lastTime: Date
    private var changesSinceSnapshot = 0
    /// The store, for automatic compaction.
    private weak var store: SimulatedStore?
    /// The file's store format: 2 (tables), or 1 (a snapshot; kept only when the durability asks to write it).
    private let format: Int64
    /// What the file's tables hold (format 2).
    private var tables: StoreTables

    private init(
        path: String, durability: StoreDurability, clock: ManualClock, ownership: StateFileLock,
        database: LedgerDatabase, format: Int64, tables: StoreTables?, lastSequence: Int64, lastTime: Date,
        changesSinceSnapshot: Int
    ) {
        self.path = path
        self.format = format
        self.tables = tables ?? StoreTables()
        self.durability = durability
        self.clock = clock
        self.ownership = ownership
        self.database = database
        switch durability.commit {
        case .everyChange: break
        case .group(let every): committer = LedgerGroupCommitter(database: database, commitEvery: max(1, every))
        case .onFlush: committer = LedgerGroupCommitter(database: database, commitEvery: .max)
        }
        self.lastSequence = lastSequence
        self.lastTime = lastTime
        self.changesSinceSnapshot = changesSinceSnapshot
    }

    /// Where the store reads the records of accounts it has not loaded yet, if it reads them on demand.
    private var source: RecordSource?

    /// Reads records on demand from `source`: a row it cannot read stops the journal (``noteSourceFailure()``).
    func readRecords(from source: RecordSource?) {
        gate.lock()
        defer { gate.unlock() }
        self.source = source
    }

    /// Stops recording if the source of records met a row it cannot read: the file keeps what it holds.
    private func noteSourceFailure() {
        guard failureValue == nil, let problem = source?.failure else { return }
        failureValue = problem
    }

    deinit {
        Self.openPaths.withLock { _ = $0.remove(path) }
    }

    // MARK: Opening

    /// What opening a state file found: the journal, and the state to start from.
    struct Opened {
        let journal: StoreJournal
        let state: StoreState
        /// The store time the file had reached.
        let time: Date
    }

    /// Opens (or creates) the state file at `path` and replays it.
    static func open(
        path: String, durability: StoreDurability, configuration: StoreConfiguration, clock: ManualClock,
        retention: HistoryRetention, app: AppIdentity, signer: ReceiptSigner
    ) throws(StoreSimulatorError) -> Opened {
        // A path that is a symbolic link is the file it leads to: locked, checked and opened there, its -wal and -shm
        // beside it; a link that leads nowhere is refused (opening it would create a file wherever it points).
        let absolute: String
        do {
            absolute = try LedgerDatabase.resolvedPath(of: path)
        } catch {
            throw stateError(error, path: path)
        }
        let registered = openPaths.withLock { $0.insert(absolute).inserted }
        guard registered else {
            throw StoreSimulatorError(
                .stateUnavailable,
                "\(absolute) is already open in another store of this process "
                    + "(pid \(ProcessInfo.processInfo.processIdentifier)); close() that store first")
        }
        do {
            // One process owns a state file at a time; taken before the file is read, so that nothing writes it
            // between the checks and the first write. Released (and its file removed) if the file is refused.
            let ownership = try StateFileLock(statePath: absolute)
            return try openRegistered(
                path: absolute, durability: durability, configuration: configuration, clock: clock,
                ownership: ownership, retention: retention, app: app, signer: signer)
        } catch {
            openPaths.withLock { _ = $0.remove(absolute) }
            throw error
        }
    }

    private static func openRegistered(
        path: String, durability: StoreDurability, configuration: StoreConfiguration, clock: ManualClock,
        ownership: StateFileLock, retention: HistoryRetention, app: AppIdentity, signer: ReceiptSigner
    ) throws(StoreSimulatorError) -> Opened {
        // Everything that can refuse the file (its format version, tables, snapshot and journal entries) is read
        // before anything is written to it: through Ledger's read-only check, so a refused file is left byte for byte
        // as it was, whatever its journal mode. `nil`: nothing of a store in it yet (a new file, or an app's database).
        var existing: Replayed?
        let database: LedgerDatabase
        do {
            database = try LedgerDatabase(path: path, options: durability.ledger) { txn in
                existing = try read(
                    txn, path: path, onDemand: !durability.ledger.checksIntegrityOnOpen, app: app, signer: signer)
                // A file of format 1 is backed up before anything (Ledger included) writes to it: stop here.
                if let replayed = existing, replayed.format == 1, !durability.writesFirstFormat {
                    throw FirstFormat()
                }
            }
        } catch let error as StoreSimulatorError {
            throw error
        } catch is FirstFormat {
            guard let replayed = existing else { preconditionFailure("a file of format 1 was read") }
            return try migrate(
                path: path, replayed: replayed, durability: durability, clock: clock, ownership: ownership)
        } catch {
            throw stateError(error, path: path)
        }
        if var replayed = existing {
            if replayed.format == currentFormat { replayed.state.trackChanges() }
            replayed.state.records.source?.attach(database)
            if replayed.format == currentFormat, var tables = replayed.tables, !tables.indexComplete {
                // A file written before the index of each account's records: every record was read, and the index
                // is written from them once, so that the next opening reads none.
                do {
                    try database.write { txn in try tables.writeIndex(txn, state: &replayed.state) }
                } catch {
                    throw stateError(error, path: path)
                }
                replayed.tables = tables
            }
            let journal = StoreJournal(
                path: path, durability: durability, clock: clock, ownership: ownership, database: database,
                format: replayed.format, tables: replayed.tables, lastSequence: replayed.sequence,
                lastTime: replayed.time, changesSinceSnapshot: replayed.count)
            journal.readRecords(from: replayed.state.records.source)
            return Opened(journal: journal, state: replayed.state, time: replayed.time)
        }
        var state = StoreState(configuration: configuration, retention: retention)
        let format: Int64 = durability.writesFirstFormat ? 1 : currentFormat
        var tables: StoreTables?
        do {
            if format == 1 {
                let bytes = try encode(StoreSnapshot(state, sequence: 0, time: clock.now))
                try database.write { txn in
                    try txn.put(bytes, forKey: snapshotKey, in: logName)
                    try txn.setMeta(format, forKey: formatKey)
                }
            } else {
                state.trackChanges()
                tables = try database.write { txn in
                    let created = try StoreTables.create(txn, state: &state, time: clock.now, through: 0)
                    try txn.setMeta(format, forKey: formatKey)
                    return created
                }
            }
        } catch {
            throw stateError(error, path: path)
        }
        let journal = StoreJournal(
            path: path, durability: durability, clock: clock, ownership: ownership, database: database,
            format: format, tables: tables, lastSequence: 0, lastTime: clock.now, changesSinceSnapshot: 0)
        return Opened(journal: journal, state: state, time: clock.now)
    }

    /// Thrown by the check of a file of format 1, to back it up before it is opened for writing.
    private struct FirstFormat: Error {}

    /// Migrates a file of format 1 (read and replayed into `replayed`) to the current format, in place: copies it to
    /// `<file>.v1.bak` first (and its `-wal` to `<file>.v1.bak-wal`), then writes the tables, removes the snapshot and
    /// the journal, and sets the format, in one transaction. A process killed at any point leaves either the file of
    /// format 1 as it was (the next open migrates it again) or the migrated file.
    private static func migrate(
        path: String, replayed: Replayed, durability: StoreDurability, clock: ManualClock, ownership: StateFileLock
    ) throws(StoreSimulatorError) -> Opened {
        try backUp(path)
        var state = replayed.state
        state.trackChanges()
        let database: LedgerDatabase
        let tables: StoreTables
        do {
            // Nothing else can have written the file since it was read: this process holds its lock.
            database = try LedgerDatabase(path: path, options: durability.ledger) { txn in
                guard try txn.metaInteger(forKey: formatKey) == 1 else { throw FirstFormat() }
            }
            let through = replayed.sequence
            StateFileMoments.reach(.migrating)
            tables = try database.write { txn in
                let created = try StoreTables.create(txn, state: &state, time: replayed.time, through: through)
                _ = try txn.remove(forKey: snapshotKey, in: logName)
                _ = try txn.removeLogEntries(in: logName, through: through)
                try txn.setMeta(currentFormat, forKey: formatKey)
                return created
            }
        } catch is FirstFormat {
            throw StoreSimulatorError(
                .stateUnavailable, "\(path) changed while it was being migrated; it was not migrated. Open it again.")
        } catch {
            let detail = (error as? LedgerError)?.detail ?? "\(error)"
            throw StoreSimulatorError(
                .stateWriteFailed,
                "\(path) (store format 1) could not be migrated to format \(currentFormat): \(detail) It keeps format "
                    + "1 and its backup \(path).v1.bak; free space or fix the file's permissions and open it again.")
        }
        let journal = StoreJournal(
            path: path, durability: durability, clock: clock, ownership: ownership, database: database,
            format: currentFormat, tables: tables, lastSequence: replayed.sequence, lastTime: replayed.time,
            changesSinceSnapshot: 0)
        return Opened(journal: journal, state: state, time: replayed.time)
    }

    /// Copies the file at `path` (and its `-wal`, if any) beside it as `<path>.v1.bak` (and `<path>.v1.bak-wal`),
    /// through temporary copies renamed into place, so that a copy interrupted by a crash is never taken for a
    /// backup.
    private static func backUp(_ path: String) throws(StoreSimulatorError) {
        let files = FileManager.default
        let backup = path + ".v1.bak"
        do {
            for name in [backup + "-wal", backup + "-shm", backup + ".partial", backup + "-wal.partial"]
            where files.fileExists(atPath: name) {
                try files.removeItem(atPath: name)
            }
            if files.fileExists(atPath: path + "-wal") {
                try files.copyItem(atPath: path + "-wal", toPath: backup + "-wal.partial")
            }
            try files.copyItem(atPath: path, toPath: backup + ".partial")
            if files.fileExists(atPath: backup) { try files.removeItem(atPath: backup) }
            if files.fileExists(atPath: backup + "-wal.partial") {
                try files.moveItem(atPath: backup + "-wal.partial", toPath: backup + "-wal")
            }
            try files.moveItem(atPath: backup + ".partial", toPath: backup)
        } catch {
            throw StoreSimulatorError(
                .stateWriteFailed,
                "\(path) (store format 1) must be migrated to format \(currentFormat), but its backup \(backup) "
                    + "cannot be written (\(error.localizedDescription)); it was not changed. Free space or make the "
                    + "directory writable, or migrate a copy: open it with the release that wrote it and copy it.")
        }
    }

    /// Reads the store in an existing database; `nil` when the database holds no store yet. Format 2: the tables,
    /// then the journal entries after them; format 1: the snapshot, then the whole journal.
    static func read(
        _ txn: borrowing LedgerReadTransaction, path: String, onDemand: Bool, app: AppIdentity, signer: ReceiptSigner
    ) throws(StoreSimulatorError) -> Replayed? {
        let stored: (format: Int64?, snapshot: Bool, entries: Bool)
        do {
            stored = (
                try txn.metaInteger(forKey: formatKey), try txn.containsValue(forKey: snapshotKey, in: logName),
                try txn.lastLogSequence(in: logName) != nil
            )
        } catch {
            throw stateError(error, path: path)
        }
        switch stored.format {
        case nil:
            guard !stored.snapshot, !stored.entries else {
                throw StoreSimulatorError(
                    .stateCorrupt,
                    "\(path) holds store entries without the store's format version (meta \(formatKey)); it was "
                        + "not changed. Move it aside (with its -wal and -shm files) and restore a backup, or "
                        + "start from a new path.")
            }
            return nil
        case let format? where format > currentFormat:
            throw StoreSimulatorError(
                .stateTooNew,
                "\(path) was written by a newer release (store format \(format); this release reads formats 1 "
                    + "to \(currentFormat)); it was not changed. Open it with that release, or use another path.")
        case let format? where format < 1:
            throw StoreSimulatorError(
                .stateCorrupt, "\(path): the store's format version is \(format), which no release writes")
        case 1:
            return try readFirstFormat(txn, path: path, app: app, signer: signer)
        default:
            // Records are read on demand unless journal entries follow the tables: their replay then runs on every
            // record, read now (compaction removes the entries it includes, so any entry is one to replay).
            let loaded = try StoreTables.read(txn, path: path, onDemand: onDemand && !stored.entries)
            var replayed = try replay(
                txn, state: loaded.state, time: loaded.time, after: loaded.through, path: path, app: app,
                signer: signer)
            replayed.format = currentFormat
            replayed.tables = loaded.tables
            return replayed
        }
    }

    /// Reads a file of format 1: its snapshot, then every journal entry after it.
    private static func readFirstFormat(
        _ txn: borrowing LedgerReadTransaction, path: String, app: AppIdentity, signer: ReceiptSigner
    ) throws(StoreSimulatorError) -> Replayed {
        let stored: [UInt8]?
        do {
            stored = try txn.value(forKey: snapshotKey, in: logName)
        } catch {
            throw stateError(error, path: path)
        }
        guard let bytes = stored else {
            throw StoreSimulatorError(
                .stateCorrupt,
                "\(path) has no store snapshot (record '\(snapshotKey)' in '\(logName)'); it was not changed. Move it "
                    + "aside (with its -wal and -shm files) and restore a backup, or start from a new path.")
        }
        let snapshot: StoreSnapshot
        let initial: StoreState
        do {
            snapshot = try JSONDecoder().decode(StoreSnapshot.self, from: Data(bytes))
            initial = try snapshot.state()
            try initial.checkStoredValues()
        } catch let problem as StoreState.StoredValueProblem {
            throw StoreSimulatorError(
                .stateCorrupt,
                "\(path): the store snapshot (format 1) holds a value out of range: \(problem). The file was not "
                    + "changed. It was damaged or altered: move it aside (with its -wal and -shm files) and restore a "
                    + "backup, or start from a new path.")
        } catch {
            throw corruptEntry(path: path, what: "the store snapshot", reason: "\(error)")
        }
        var replayed = try replay(
            txn, state: initial, time: snapshot.time, after: snapshot.sequence, path: path, app: app, signer: signer)
        replayed.format = 1
        return replayed
    }

    /// What a replay reached.
    struct Replayed: Sendable {
        var state: StoreState
        var time: Date
        var sequence: Int64
        var count: Int
        var format: Int64 = currentFormat
        var tables: StoreTables?
    }

    /// Applies every journal entry after `sequence`, in order, to a private store on a manual lane with no device
    /// connected (so nothing is told to anyone), each at the store time it was recorded at, starting from `initial`
    /// at `time`.
    private static func replay(
        _ txn: borrowing LedgerReadTransaction, state initial: StoreState, time: Date, after start: Int64,
        path: String, app: AppIdentity, signer: ReceiptSigner
    ) throws(StoreSimulatorError) -> Replayed {
        // Compaction removes the entries it brought into the tables (those up to `start`) in the same transaction:
        // an entry at or below `start` means `start` was raised or the entries put back, and skipping them would
        // hand out their identifiers again.
        let first: [LedgerLogEntry]
        do {
            first = try txn.logEntries(in: logName, limit: 1)
        } catch {
            throw stateError(error, path: path)
        }
        if let entry = first.first, entry.sequence <= start {
            throw StoreSimulatorError(
                .stateCorrupt,
                "\(path): journal entry \(entry.sequence) is at or below the sequence the tables were brought up to "
                    + "(meta \(StoreTables.Meta.through) or the snapshot's, \(start)), which compaction never leaves: "
                    + "the file was altered, and replaying it would skip changes. The file was not changed: move it "
                    + "aside (with its -wal and -shm files) and restore a backup, or start from a new path.")
        }
        let clock = ManualClock(start: time)
        let store = SimulatedStore(
            state: initial, clock: clock, lane: .manual, app: app, signer: signer, journal: nil)
        var sequence = start
        var count = 0
        while true {
            let page: [LedgerLogEntry]
            do {
                page = try txn.logEntries(in: logName, after: sequence, limit: 1024)
            } catch {
                throw stateError(error, path: path)
            }
            guard !page.isEmpty else { break }
            for entry in page {
                let decoded: (command: StoreCommand, time: Date)
                do {
                    decoded = try StoreCommand.decode(entry.payload)
                } catch {
                    throw corruptEntry(
                        path: path, what: "journal entry \(entry.sequence)", reason: error.description)
                }
                clock.advance(to: decoded.time)
                store.replay(decoded.command)
                sequence = entry.sequence
                count += 1
            }
            store.runUntilIdle()  // events for devices: none is connected, so they go nowhere
        }
        return Replayed(state: store.state.withLock { $0 }, time: clock.now, sequence: sequence, count: count)
    }

    // MARK: Recording

    /// Connects the journal to its store (for automatic snapshots).
    func attach(_ store: SimulatedStore) {
        gate.lock()
        defer { gate.unlock() }
        self.store = store
    }

    /// Takes the gate and records `command`. Pair with ``end()``.
    func begin(_ command: StoreCommand) {
        enter()
        append(command)
    }

    /// Takes the gate without recording anything yet (the command is known only later). Pair with ``end()``.
    func enter() {
        gate.lock()
        if depth == 0 { recordedInChange = false }
        depth += 1
    }

    /// Records `command`; the caller holds the gate (``enter()``).
    func record(_ command: StoreCommand) {
        gate.lock()
        defer { gate.unlock() }
        append(command)
    }

    /// Releases the gate taken by ``begin(_:)`` or ``enter()``; writes a snapshot when one is due and no change is
    /// in progress.
    func end() {
        defer { gate.unlock() }
        depth -= 1
        // A change that moved the clock (advance) leaves it where a replay of it leaves it too; a call that recorded
        // nothing says nothing about the clock (it may have been moved directly, which flush() records).
        if depth == 0, recordedInChange, failureValue == nil { lastTime = max(lastTime, clock.now) }
        guard depth == 0, let every = durability.compactEvery, changesSinceSnapshot >= every, failureValue == nil,
            let store
        else { return }
        do {
            try compactLocked(store)
        } catch {
            // Recorded in `failureValue` by compactLocked; the store goes on in memory.
        }
    }

    private func append(_ command: StoreCommand) {
        noteSourceFailure()
        guard failureValue == nil, let database else { return }
        let time = clock.now
        writer.reset()
        command.encode(at: time, into: &writer)
        do {
            let sequence: Int64
            if let committer {
                sequence = try committer.appendLog(writer.bytes, to: Self.logName)
            } else {
                sequence = try database.write { txn in try txn.appendLog(writer.bytes, to: Self.logName) }
            }
            lastSequence = sequence
            lastTime = time
            changesSinceSnapshot += 1
            recordedInChange = true
        } catch {
            fail(error, "recording a change")
        }
    }

    /// Remembers the first failure; nothing is recorded after it.
    private func fail(_ error: any Error, _ action: String) {
        guard failureValue == nil else { return }
        let detail = (error as? LedgerError)?.detail ?? "\(error)"
        failureValue = StoreSimulatorError(
            .stateWriteFailed,
            "\(action) in \(path) failed: \(detail) Changes made from then on are kept in memory only; the file "
                + "holds the history up to the last change it acknowledged.")
    }

    /// The first failure to record a change, if any.
    var failure: StoreSimulatorError? {
        gate.lock()
        defer { gate.unlock() }
        noteSourceFailure()
        return failureValue
    }

    /// The number of recorded changes not yet committed (group commit).
    var pendingChanges: Int {
        gate.lock()
        defer { gate.unlock() }
        return committer?.pendingWrites ?? 0
    }

    /// The database, while open.
    var ledger: LedgerDatabase? {
        gate.lock()
        defer { gate.unlock() }
        return database
    }

    // MARK: Committing

    /// Commits every pending change (recording a clock moved directly first).
    func flush() throws(StoreSimulatorError) {
        gate.lock()
        defer { gate.unlock() }
        try flushLocked()
    }

    private func flushLocked() throws(StoreSimulatorError) {
        noteSourceFailure()
        if let failureValue { throw failureValue }
        guard database != nil else { return }
        if clock.now > lastTime { append(.moveClock) }
        if let committer {
            do {
                try committer.flush()
            } catch {
                fail(error, "committing changes")
            }
        }
        if let failureValue { throw failureValue }
    }

    /// Commits before a device hears of anything, in group-commit mode (not with ``StoreDurability/Commit/onFlush``);
    /// a failure is kept in ``failure``.
    func flushBeforeCallback() {
        gate.lock()
        defer { gate.unlock() }
        guard failureValue == nil, let committer, committer.pendingWrites > 0, durability.commit != .onFlush else {
            return
        }
        do {
            try committer.flush()
        } catch {
            fail(error, "committing changes")
        }
    }

    // MARK: Snapshots

    /// Brings the tables up to date with the store's state and removes the journal entries they now include, in one
    /// transaction (format 1: writes a snapshot of the whole state instead).
    func compact(_ store: SimulatedStore) throws(StoreSimulatorError) {
        gate.lock()
        defer { gate.unlock() }
        try compactLocked(store)
    }

    private func compactLocked(_ store: SimulatedStore) throws(StoreSimulatorError) {
        try flushLocked()
        guard let database else { return }
        let through = lastSequence
        let time = clock.now
        StateFileMoments.reach(.compacting)
        do {
            if format == 1 {
                let bytes = try Self.encode(StoreSnapshot(store.state.withLock { $0 }, sequence: through, time: time))
                try database.write { txn in
                    try txn.put(bytes, forKey: Self.snapshotKey, in: Self.logName)
                    _ = try txn.removeLogEntries(in: Self.logName, through: through)
                }
            } else {
                // The state cannot change meanwhile: changes hold the gate, which this holds.
                var tables = self.tables
                try store.state.withLock { state in
                    try database.write { txn in
                        try tables.write(txn, state: &state, time: time, through: through)
                        _ = try txn.removeLogEntries(in: Self.logName, through: through)
                    }
                }
                self.tables = tables
            }
            lastTime = time
            changesSinceSnapshot = 0
        } catch {
            fail(error, "compacting the journal into the tables")
            if let failureValue { throw failureValue }
        }
    }

    /// Commits what is pending, then checks the whole file (``StateFileCheck``), with no change made meanwhile.
    func checkWholeFile() throws(StoreSimulatorError) {
        gate.lock()
        defer { gate.unlock() }
        try flushLocked()
        try StateFileCheck.check(path: path)
    }

    // MARK: Closing

    /// Commits what is pending and closes the database; records nothing afterwards.
    func close() throws(StoreSimulatorError) {
        gate.lock()
        defer { gate.unlock() }
        guard database != nil else { return }
        defer {
            committer = nil
            database = nil
            source?.detach()  // the database closes now, not when the store goes away
            if failureValue == nil {
                failureValue = StoreSimulatorError(
                    .stateWriteFailed, "the store was closed; changes made after close() are not saved to \(path)")
            }
            ownership = nil  // the file may now be opened by another store, or another process
            Self.openPaths.withLock { _ = $0.remove(path) }
        }
        try flushLocked()
    }

    // MARK: Errors

    private static func encode(_ snapshot: StoreSnapshot) throws -> [UInt8] {
        Array(try JSONEncoder().encode(snapshot))
    }

    /// The store's error for a Ledger error met while opening or reading the file at `path`.
    static func stateError(_ error: any Error, path: String) -> StoreSimulatorError {
        guard let error = error as? LedgerError else {
            return StoreSimulatorError(.stateUnavailable, "\(path): \(error)")
        }
        switch error.code {
        case .newerSchema:
            return StoreSimulatorError(
                .stateTooNew, "The state file was written by a newer release and was not changed: \(error.detail)")
        case .corrupt:
            return StoreSimulatorError(
                .stateCorrupt, "The state file is damaged or truncated and was not changed: \(error.detail)")
        case .notADatabase, .notALedger:
            return StoreSimulatorError(
                .stateUnavailable, "The file is not an OpenStoreKit state file and was not changed: \(error.detail)")
        case .diskFull, .ioError:
            return StoreSimulatorError(.stateWriteFailed, error.detail)
        default:
            return StoreSimulatorError(.stateUnavailable, error.detail)
        }
    }

    private static func corruptEntry(path: String, what: String, reason: String) -> StoreSimulatorError {
        StoreSimulatorError(
            .stateCorrupt,
            "\(path): \(what) cannot be read (\(reason)). The file was not changed. It was damaged, or written by a "
                + "newer release: open it with that release, or move it aside (with its -wal and -shm files) and "
                + "restore a backup or start from a new path.")
    }
}
