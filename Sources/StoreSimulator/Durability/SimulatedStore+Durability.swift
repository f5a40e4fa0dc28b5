public import Foundation
public import Ledger
public import ReceiptKit
public import StoreModels
import Synchronization

extension SimulatedStore {
    /// Opens a durable store whose state lives in an SQLite file (WAL mode) at `statePath`, creating the file if it
    /// does not exist.
    ///
    /// Every change is appended to the file's journal before it is applied (see ``StoreDurability``), so a store
    /// reopened from the same path, in this process or another one after a crash, has exactly the state it had:
    /// each device's unfinished transactions with their states, the purchase history, subscriptions, pending Ask to
    /// Buy requests, scripted outcomes, settings and catalog, the clock, the identifier counters and what receipts
    /// are made from. A payment queue opened on it for a device gets that device's unfinished transactions back:
    /// reported again to its first observer, with `.purchasing` ones going on; finished transactions never come back
    /// and identifiers are never reused.
    ///
    /// ```swift
    /// let store = try SimulatedStore(statePath: "state.sqlite", lane: .manual)
    /// let queue = SKPaymentQueue(store: store, deviceID: "device-1")   // in OpenStoreKit
    /// ...
    /// try store.close()
    /// ```
    ///
    /// A file is open in one store at a time, across processes: opening takes an exclusive lock on `<statePath>.lock`
    /// (holding the process id), released by ``close()`` and by the end of the process however it ends, and a second
    /// store on the same file, in this process or another, is refused at once naming the process that holds it.
    ///
    /// - Parameters:
    ///   - statePath: The state file. Beside it SQLite keeps `-wal` and `-shm` files; copy or move the three together.
    ///     A symbolic link is the file it leads to: locked, opened and kept there (a link to nothing is refused).
    ///   - durability: When changes are committed, and how the file is opened.
    ///   - configuration: The catalog and settings of a new file. An existing file keeps its own (change it with
    ///     ``reconfigure(_:)``, which is itself recorded).
    ///   - clock: The store's clock: a durable store runs on a manual clock, so that every change is replayed at the
    ///     time it happened. Opening an existing file moves the clock forward to the time the file reached.
    ///   - lane: How work runs, as for an in-memory store.
    ///   - retention: The history retention of a new file; an existing file keeps its own.
    ///   - app: The app receipts are issued to.
    ///   - signer: Signs receipts.
    ///   - jwsSigner: Signs StoreKit 2 JWS; environment `Sandbox` with the default test identity.
    /// - Throws: ``StoreSimulatorError`` with code `stateUnavailable` (cannot open or create it, not a state file,
    ///   already open in another store of this process or another process, a link to nothing, a lock file, `-wal` or
    ///   `-shm` that is a link, a file that cannot be written), `stateCorrupt` (damaged or truncated, an entry cannot
    ///   be read, or a stored value is out of its range or refers to nothing) or `stateTooNew` (written by a newer release). A refused file is never modified, reset
    ///   or deleted.
    public convenience init(
        statePath: String,
        durability: StoreDurability = StoreDurability(),
        configuration: StoreConfiguration = .demo,
        clock: ManualClock = ManualClock(),
        lane: StoreLane.Mode = .dispatch(.main),
        retention: HistoryRetention = .all,
        app: AppIdentity = AppIdentity(),
        signer: ReceiptSigner = ReceiptSigner(),
        jwsSigner: JWSSigner = JWSSigner()
    ) throws(StoreSimulatorError) {
        try self.init(
            opening: statePath, durability: durability, configuration: configuration, clock: clock, lane: lane,
            retention: retention, app: app, signer: signer, jwsSigner: jwsSigner)
    }

    /// Opens a durable store whose state lives in `database`: a state file's path, exactly as
    /// ``init(statePath:durability:configuration:clock:lane:retention:app:signer:jwsSigner:)`` opens it, or the URL
    /// of a Ledger database on a PostgreSQL server (`postgresql://` or `postgres://`, see
    /// `LedgerDatabase.isServerURL(_:)`), creating the store in it if it holds none.
    ///
    /// A store on a server database is the same store: the same tables and journal, the same commits and
    /// compaction, the same guarantees for what was acknowledged. What differs:
    ///
    /// - There is no lock file: the server lets one `LedgerDatabase` use a database at a time, across processes, and a
    ///   second store on it (in this process or another) is refused with `stateUnavailable` naming it.
    /// - It is always written in the current store format: format 1, and its migration with a backup beside the file,
    ///   belong to state files.
    /// - Messages and ``databaseLocation`` name it by its URL without the password.
    ///
    /// ```swift
    /// let store = try SimulatedStore(database: "postgresql://app@db.example/store", lane: .manual)
    /// ```
    ///
    /// A server database needs a build with the package trait `Postgres` (`swift build --traits Postgres`); without
    /// it, a URL is refused with `stateUnavailable` saying so.
    ///
    /// - Parameters:
    ///   - database: A state file's path, or a server database's URL (its password, if any, is never shown).
    ///   - durability: When changes are committed, and how the database is opened.
    ///   - configuration: The catalog and settings of a new store; an existing one keeps its own.
    ///   - clock: The store's clock, moved forward to the time the database reached.
    ///   - lane: How work runs, as for an in-memory store.
    ///   - retention: The history retention of a new store; an existing one keeps its own.
    ///   - app: The app receipts are issued to.
    ///   - signer: Signs receipts.
    ///   - jwsSigner: Signs StoreKit 2 JWS; environment `Sandbox` with the default test identity.
    /// - Throws: ``StoreSimulatorError`` as
    ///   ``init(statePath:durability:configuration:clock:lane:retention:app:signer:jwsSigner:)`` does; for a server
    ///   database `stateUnavailable` also when the server cannot be reached, the build lacks the trait `Postgres`, or
    ///   another store uses the database. A refused database is never modified, reset or deleted.
    public convenience init(
        database: String,
        durability: StoreDurability = StoreDurability(),
        configuration: StoreConfiguration = .demo,
        clock: ManualClock = ManualClock(),
        lane: StoreLane.Mode = .dispatch(.main),
        retention: HistoryRetention = .all,
        app: AppIdentity = AppIdentity(),
        signer: ReceiptSigner = ReceiptSigner(),
        jwsSigner: JWSSigner = JWSSigner()
    ) throws(StoreSimulatorError) {
        try self.init(
            opening: database, durability: durability, configuration: configuration, clock: clock, lane: lane,
            retention: retention, app: app, signer: signer, jwsSigner: jwsSigner)
    }

    /// Opens the store in `database` (a path or a server URL): what both public initializers do.
    private convenience init(
        opening database: String, durability: StoreDurability, configuration: StoreConfiguration, clock: ManualClock,
        lane: StoreLane.Mode, retention: HistoryRetention, app: AppIdentity, signer: ReceiptSigner,
        jwsSigner: JWSSigner
    ) throws(StoreSimulatorError) {
        let opened = try StoreJournal.open(
            database: database, durability: durability, configuration: configuration, clock: clock,
            retention: retention, app: app, signer: signer)
        clock.advance(to: opened.time)
        self.init(
            state: opened.state, clock: clock, lane: lane, app: app, signer: signer, jwsSigner: jwsSigner,
            journal: opened.journal)
        opened.journal.attach(self)
    }

    /// The absolute path of the state file (for a path given as a symbolic link, the file it leads to), or `nil` for an
    /// in-memory store and for a store on a server database (see ``databaseLocation``).
    public var statePath: String? { journal?.path }

    /// Where the store's state is: the absolute path of its state file (as ``statePath``), or the URL of its server
    /// database without the password; `nil` for an in-memory store. Safe to print.
    public var databaseLocation: String? { journal?.location.name }

    /// Whether the store keeps its state in a database (a state file, or a database on a server).
    public var isDurable: Bool { journal != nil }

    /// The durability options the store was opened with, or `nil` for an in-memory store.
    public var durability: StoreDurability? { journal?.durability }

    /// The database of the state file while the store is open: an app (or a test) may keep its own data in it, such
    /// as content it grants and deliveries it records. A write through it (`write(_:)`) also commits the store's
    /// pending changes first, in group-commit mode, so data written there never survives a crash that the store's
    /// changes before it do not. Use names other than `openstorekit.store`.
    public var ledger: LedgerDatabase? { journal?.ledger }

    /// Why the store stopped recording changes, if it did: writing the state file failed, or the store was closed.
    /// Changes made since then are in memory only.
    public var durabilityError: StoreSimulatorError? { journal?.failure }

    /// How many changes are recorded but not yet committed (group commit); 0 otherwise.
    public var pendingChanges: Int { journal?.pendingChanges ?? 0 }

    /// Commits every pending change: when it returns, everything the store did before is acknowledged (durable). A
    /// clock moved directly (not through ``advance(to:)``) is recorded too. Does nothing for an in-memory store.
    /// - Throws: ``StoreSimulatorError`` `stateWriteFailed` if the state file could not be written (now or before).
    public func flush() throws(StoreSimulatorError) {
        try journal?.flush()
    }

    /// Writes a snapshot of the whole state into the state file and drops the journal entries it covers, so that
    /// reopening replays nothing before it. Takes time in proportion to the size of the state. Does nothing for an
    /// in-memory store.
    /// - Throws: ``StoreSimulatorError`` `stateWriteFailed` if the state file could not be written.
    public func compact() throws(StoreSimulatorError) {
        try journal?.compact(self)
    }

    /// Commits what is pending, closes the state file and releases its lock, so the path can be opened again (by
    /// another store in this process, or another process). The store goes on in memory; changes made after closing are
    /// not saved. A store that reads records on demand keeps those it has read: the history of an account it never
    /// read is no longer reachable once the file is closed. Does nothing for an in-memory store, or when already closed.
    /// - Throws: ``StoreSimulatorError`` `stateWriteFailed` if the pending changes could not be committed.
    public func close() throws(StoreSimulatorError) {
        try journal?.close()
    }

    /// Checks the whole state file now, as opening no longer does by default (it reads the whole file): commits what
    /// is pending, then runs SQLite's `quick_check` over every page and reads and checks every row of the history,
    /// each listed by the index of its account's records. Its cost follows the file's size. Opening with
    /// `durability.ledger.checksIntegrityOnOpen` makes the same check on opening. Does nothing for an in-memory store.
    ///
    /// - Throws: `stateCorrupt` naming the file (and the table and row of a damaged row), or the error that stopped
    ///   the journal (``durabilityError``).
    public func checkStateFile() throws(StoreSimulatorError) {
        try journal?.checkWholeFile()
    }

    /// Checks the whole state file at `path`, which no store need have open, without writing anything to it: what
    /// ``checkStateFile()`` checks, and everything opening checks (every table, the journal entries and their replay).
    /// `openstorekit check-state FILE` runs it.
    ///
    /// - Throws: `stateUnavailable` for a missing file or one that holds no store, or what opening it would throw
    ///   (`stateCorrupt` naming the file, table and row, `stateTooNew`, ...).
    public static func checkStateFile(atPath path: String) throws(StoreSimulatorError) {
        try StateFileCheck.check(path: path)
    }

    // MARK: Replay

    /// Applies a command read from a journal, as it was applied when recorded: an operation through the entry point
    /// every operation takes (``perform(_:reporting:)``), a device's step as the device took it. Failures are the
    /// operation's own (an unknown transaction, say) and happened the same way the first time, so they are ignored.
    func replay(_ command: StoreCommand) {
        switch command {
        case .operation(let operation):
            _ = try? apply(operation, replaying: true)
        case .submit(let request, let deviceID):
            _ = submit(request, to: state.withLock { $0.device(deviceID) })
        case .processPayment(let id, let deviceID, let continues):
            // The listeners were asked whether to go on in a changed storefront: the replay gives their answer.
            if let device = state.withLock({ $0.devices[deviceID] }) {
                processPayment(id, on: device, replayedAnswer: continues)
            }
        case .finish(let id, let deviceID):
            if let device = state.withLock({ $0.devices[deviceID] }) { finish(id, on: device) }
        case .restore(let deviceID, let username):
            restore(deviceID: deviceID, applicationUsername: username)
        case .connect(let deviceID, let account):
            registerDevice(deviceID, account: account)
        case .moveClock:
            break  // the clock was moved to the entry's time before it was replayed
        }
    }
}
