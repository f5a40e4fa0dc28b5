import Foundation
import Ledger
import ReceiptKit
import StoreModels
import Synchronization

/// The journal of a durable store: appends each change (a ``StoreCommand``) to the store's database (a state file, or
/// a Ledger database on a server) before the store applies it, and serializes changes so that the journal's order is
/// the order they were applied in.
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

    /// The locations of the databases open in this process (state files' paths, servers' URLs without password): a
    /// database is open in one store at a time.
    private static let openLocations = Mutex<Set<String>>([])

    /// Where the state is: the absolute path of the state file, or the server database's URL without its password.
    let location: StateLocation
    /// The absolute path of the state file; `nil` for a database on a server.
    var path: String? { location.isFile ? location.name : nil }
    let durability: StoreDurability
    /// The store's clock; each command is recorded with its time.
    let clock: ManualClock

    private let gate = NSRecursiveLock()
    /// This process's ownership of the state file, released by ``close()`` (or when the journal goes away); `nil` for
    /// a database on a server, which Ledger lets one connection use at a time.
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
        location: StateLocation, durability: StoreDurability, clock: ManualClock, ownership: StateFileLock?,
        database: LedgerDatabase, format: Int64, tables: StoreTables?, lastSequence: Int64, lastTime: Date,
        changesSinceSnapshot: Int
    ) {
        self.location = location
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
        Self.openLocations.withLock { _ = $0.remove(location.name) }
    }

    // MARK: Opening

    /// What opening a state file found: the journal, and the state to start from.
    struct Opened {
        let journal: StoreJournal
        let state: StoreState
        /// The store time the file had reached.
        let time: Date
    }

    /// Opens (or creates) the store in `database`, a state file's path or a server database's URL (see
    /// `LedgerDatabase.isServerURL(_:)`), and replays it.
    static func open(
        database: String, durability: StoreDurability, configuration: StoreConfiguration, clock: ManualClock,
        retention: HistoryRetention, app: AppIdentity, signer: ReceiptSigner
    ) throws(StoreSimulatorError) -> Opened {
        let settings = Settings(
            durability: durability, configuration: configuration, clock: clock, retention: retention, app: app,
            signer: signer)
        if LedgerDatabase.isServerURL(database) { return try openServer(url: database, settings) }
        // A path that is a symbolic link is the file it leads to: locked, checked and opened there, its -wal and -shm
        // beside it; a link that leads nowhere is refused (opening it would create a file wherever it points).
        let absolute: String
        do {
            absolute = try LedgerDatabase.resolvedPath(of: database)
        } catch {
            throw stateError(error, at: StateLocation(name: database, isFile: true))
        }
        let location = StateLocation(name: absolute, isFile: true)
        try register(location)
        do {
            // One process owns a state file at a time; taken before the file is read, so that nothing writes it
            // between the checks and the first write. Released (and its file removed) if the file is refused.
            let ownership = try StateFileLock(statePath: absolute)
            return try openRegistered(location, settings, ownership: ownership) { check in
                try LedgerDatabase(path: absolute, options: durability.ledger, checkingExisting: check)
            }
        } catch {
            openLocations.withLock { _ = $0.remove(absolute) }
            throw error
        }
    }

    /// Opens (or creates) the store in a Ledger database on a server: no lock file (Ledger lets one connection use a
    /// server database at a time, and refuses another with `inUse`) and no format 1 (a server database is always
    /// written in the current format).
    private static func openServer(url: String, _ settings: Settings) throws(StoreSimulatorError) -> Opened {
        // What errors name: never the URL as given, which may hold a password.
        let location = StateLocation(name: LedgerDatabase.location(ofServerURL: url), isFile: false)
        try register(location)
        do {
            return try openRegistered(location, settings, ownership: nil) { check in
                try LedgerDatabase(url: url, options: settings.durability.ledger, checkingExisting: check)
            }
        } catch {
            openLocations.withLock { _ = $0.remove(location.name) }
            throw error
        }
    }

    /// Notes that `location` is open in this process; refuses it if another store has it open.
    private static func register(_ location: StateLocation) throws(StoreSimulatorError) {
        let registered = openLocations.withLock { $0.insert(location.name).inserted }
        guard registered else {
            throw StoreSimulatorError(
                .stateUnavailable,
                "\(location.name) is already open in another store of this process "
                    + "(pid \(ProcessInfo.processInfo.processIdentifier)); close() that store first")
        }
    }

    /// What a store is opened with, passed along as one value.
    private struct Settings {
        let durability: StoreDurability
        let configuration: StoreConfiguration
        let clock: ManualClock
        let retention: HistoryRetention
        let app: AppIdentity
        let signer: ReceiptSigner
    }

    /// Opens the database through `openDatabase` (which runs the check it is given on an existing database before
    /// writing anything) and reads or creates the store in it.
    private static func openRegistered(
        _ location: StateLocation, _ settings: Settings, ownership: StateFileLock?,
        openDatabase: ((borrowing LedgerReadTransaction) throws -> Void) throws -> LedgerDatabase
    ) throws(StoreSimulatorError) -> Opened {
        let durability = settings.durability
        let clock = settings.clock
        // A server database is always written in the current format.
        let writesFirstFormat = durability.writesFirstFormat && location.isFile
        // Everything that can refuse the database (its format version, tables, snapshot and journal entries) is read
        // before anything is written to it: through Ledger's read-only check, so a refused file is left byte for byte
        // as it was, whatever its journal mode. `nil`: nothing of a store in it yet (a new database, or an app's).
        var existing: Replayed?
        let database: LedgerDatabase
        do {
            database = try openDatabase { txn in
                // Records are read on demand from state files only (a store on a server reads them all at opening).
                existing = try read(
                    txn, at: location, onDemand: location.isFile && !durability.ledger.checksIntegrityOnOpen,
                    app: settings.app, signer: settings.signer)
                // A file of format 1 is backed up before anything (Ledger included) writes to it: stop here.
                if let replayed = existing, replayed.format == 1, !writesFirstFormat {
                    throw FirstFormat()
                }
            }
        } catch let error as StoreSimulatorError {
            throw error
        } catch is FirstFormat {
            guard let replayed = existing, let ownership else { preconditionFailure("a file of format 1 was read") }
            return try migrate(
                path: location.name, replayed: replayed, durability: durability, clock: clock, ownership: ownership)
        } catch {
            throw stateError(error, at: location)
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
                    throw stateError(error, at: location)
                }
                replayed.tables = tables
            }
            let journal = StoreJournal(
                location: location, durability: durability, clock: clock, ownership: ownership, database: database,
                format: replayed.format, tables: replayed.tables, lastSequence: replayed.sequence,
                lastTime: replayed.time, changesSinceSnapshot: replayed.count)
            journal.readRecords(from: replayed.state.records.source)
            return Opened(journal: journal, state: replayed.state, time: replayed.time)
        }
        var state = StoreState(configuration: settings.configuration, retention: settings.retention)
        let format: Int64 = writesFirstFormat ? 1 : currentFormat
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
            throw stateError(error, at: location)
        }
        let journal = StoreJournal(
            location: location, durability: durability, clock: clock, ownership: ownership, database: database,
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
            location: StateLocation(name: path, isFile: true), durability: durability, clock: clock,
            ownership: ownership, database: database, format: currentFormat, tables: tables,
            lastSequence: replayed.sequence, lastTime: replayed.time,
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
        _ txn: borrowing LedgerReadTransaction, at location: StateLocation, onDemand: Bool, app: AppIdentity,
        signer: ReceiptSigner
    ) throws(StoreSimulatorError) -> Replayed? {
        let stored: (format: Int64?, snapshot: Bool, entries: Bool)
        do {
            stored = (
                try txn.metaInteger(forKey: formatKey), try txn.containsValue(forKey: snapshotKey, in: logName),
                try txn.lastLogSequence(in: logName) != nil
            )
        } catch {
            throw stateError(error, at: location)
        }
        switch stored.format {
        case nil:
            guard !stored.snapshot, !stored.entries else {
                throw StoreSimulatorError(
                    .stateCorrupt,
                    "\(location.name) holds store entries without the store's format version (meta \(formatKey)). "
                        + "\(location.unchanged) It was damaged or altered: \(location.recovery).")
            }
            return nil
        case let format? where format > currentFormat:
            throw StoreSimulatorError(
                .stateTooNew,
                "\(location.name) was written by a newer release (store format \(format); this release reads "
                    + "formats 1 to \(currentFormat)). \(location.unchanged) Open it with that release, or use "
                    + "another \(location.isFile ? "path" : "database").")
        case let format? where format < 1:
            throw StoreSimulatorError(
                .stateCorrupt, "\(location.name): the store's format version is \(format), which no release writes")
        case 1 where !location.isFile:
            throw StoreSimulatorError(
                .stateCorrupt,
                "\(location.name) holds store format 1, which only state files of earlier releases have; a database "
                    + "on a server is always written in format \(currentFormat). \(location.unchanged) It was "
                    + "altered: \(location.recovery).")
        case 1:
            return try readFirstFormat(txn, at: location, app: app, signer: signer)
        default:
            // Records are read on demand unless journal entries follow the tables: their replay then runs on every
            // record, read now (compaction removes the entries it includes, so any entry is one to replay).
            let loaded = try StoreTables.read(txn, at: location, onDemand: onDemand && !stored.entries)
            var replayed = try replay(
                txn, state: loaded.state, time: loaded.time, after: loaded.through, at: location, app: app,
                signer: signer)
            replayed.format = currentFormat
            replayed.tables = loaded.tables
            return replayed
        }
    }

    /// Reads a file of format 1: its snapshot, then every journal entry after it.
    private static func readFirstFormat(
        _ txn: borrowing LedgerReadTransaction, at location: StateLocation, app: AppIdentity, signer: ReceiptSigner
    ) throws(StoreSimulatorError) -> Replayed {
        let stored: [UInt8]?
        do {
            stored = try txn.value(forKey: snapshotKey, in: logName)
        } catch {
            throw stateError(error, at: location)
        }
        guard let bytes = stored else {
            throw StoreSimulatorError(
                .stateCorrupt,
                "\(location.name) has no store snapshot (record '\(snapshotKey)' in '\(logName)'). "
                    + "\(location.unchanged) It was damaged or altered: \(location.recovery).")
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
                "\(location.name): the store snapshot (format 1) holds a value out of range: \(problem). "
                    + "\(location.unchanged) It was damaged or altered: \(location.recovery).")
        } catch {
            throw corruptEntry(at: location, what: "the store snapshot", reason: "\(error)")
        }
        var replayed = try replay(
            txn, state: initial, time: snapshot.time, after: snapshot.sequence, at: location, app: app,
            signer: signer)
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
        at location: StateLocation, app: AppIdentity, signer: ReceiptSigner
    ) throws(StoreSimulatorError) -> Replayed {
        // Compaction removes the entries it brought into the tables (those up to `start`) in the same transaction:
        // an entry at or below `start` means `start` was raised or the entries put back, and skipping them would
        // hand out their identifiers again.
        let first: [LedgerLogEntry]
        do {
            first = try txn.logEntries(in: logName, limit: 1)
        } catch {
            throw stateError(error, at: location)
        }
        if let entry = first.first, entry.sequence <= start {
            throw StoreSimulatorError(
                .stateCorrupt,
                "\(location.name): journal entry \(entry.sequence) is at or below the sequence the tables were "
                    + "brought up to (meta \(StoreTables.Meta.through) or the snapshot's, \(start)), which compaction "
                    + "never leaves: the \(location.noun) was altered, and replaying it would skip changes. "
                    + "\(location.unchanged) \(location.recovery.prefix(1).uppercased() + location.recovery.dropFirst())."
            )
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
                throw stateError(error, at: location)
            }
            guard !page.isEmpty else { break }
            for entry in page {
                let decoded: (command: StoreCommand, time: Date)
                do {
                    decoded = try StoreCommand.decode(entry.payload)
                } catch {
                    throw corruptEntry(
                        at: location, what: "journal entry \(entry.sequence)", reason: error.description)
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
            "\(action) in \(location.name) failed: \(detail) Changes made from then on are kept in memory only; the "
                + "\(location.noun) "
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
        guard let path else {
            throw StoreSimulatorError(
                .stateUnavailable,
                "\(location.name) is a database on a PostgreSQL server: the whole-file check is for state files (the "
                    + "server checks its own pages; each row is checked as the store reads it)")
        }
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
                    .stateWriteFailed,
                    "the store was closed; changes made after close() are not saved to \(location.name)")
            }
            ownership = nil  // the file may now be opened by another store, or another process
            Self.openLocations.withLock { _ = $0.remove(location.name) }
        }
        try flushLocked()
    }

    // MARK: Errors

    private static func encode(_ snapshot: StoreSnapshot) throws -> [UInt8] {
        Array(try JSONEncoder().encode(snapshot))
    }

    /// The store's error for a Ledger error met while opening or reading the database at `location`.
    static func stateError(_ error: any Error, at location: StateLocation) -> StoreSimulatorError {
        guard let error = error as? LedgerError else {
            return StoreSimulatorError(.stateUnavailable, "\(location.name): \(error)")
        }
        let what = location.isFile ? "The state file" : "The database \(location.name)"
        switch error.code {
        case .newerSchema:
            return StoreSimulatorError(
                .stateTooNew, "\(what) was written by a newer release and was not changed: \(error.detail)")
        case .corrupt:
            return StoreSimulatorError(
                .stateCorrupt, "\(what) is damaged or truncated and was not changed: \(error.detail)")
        case .notADatabase, .notALedger:
            return StoreSimulatorError(
                .stateUnavailable,
                "\(location.isFile ? "The file" : what) is not an OpenStoreKit \(location.noun) and was not changed: "
                    + error.detail)
        case .inUse:
            return StoreSimulatorError(
                .stateUnavailable,
                "\(location.name) is in use by another store (in this process or another one); a database is used "
                    + "by one store at a time: stop or close() that store, or use another database. \(error.detail)")
        case .diskFull, .ioError:
            return StoreSimulatorError(.stateWriteFailed, error.detail)
        default:
            return StoreSimulatorError(.stateUnavailable, error.detail)
        }
    }

    private static func corruptEntry(at location: StateLocation, what: String, reason: String) -> StoreSimulatorError {
        StoreSimulatorError(
            .stateCorrupt,
            "\(location.name): \(what) cannot be read (\(reason)). \(location.unchanged) It was damaged, or written by "
                + "a newer release: open it with that release, or \(location.recovery).")
    }
}
