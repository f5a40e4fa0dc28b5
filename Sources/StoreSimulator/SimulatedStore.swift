public import Dispatch
public import Foundation
public import ReceiptKit
public import StoreModels
import Synchronization

/// A simulated App Store that a test controls completely: its catalog, its settings, its clock, every outcome.
///
/// A store owns its state (catalog, accounts, purchase history, unfinished transactions per device, pending Ask to Buy
/// requests, failure settings) and its clock. Every change and every callback passes through one serial
/// ``StoreLane``, so the same actions on a fresh store produce the same events, identifiers and dates every run.
///
/// Stores are independent: two tests that each make their own store never see each other.
///
/// ```swift
/// let store = SimulatedStore(lane: .manual)         // advances only when told
/// let queue = SKPaymentQueue(store: store)          // in OpenStoreKit
/// queue.add(observer)
/// queue.add(SKPayment(product: product))
/// store.runUntilIdle()                              // .purchasing, then .purchased, delivered
/// ```
public final class SimulatedStore: Sendable {
    /// The account purchases are made with unless a queue names another.
    public static let defaultAccount = "default"

    /// The device StoreKit's default queue (`SKPaymentQueue.default()`) and StoreKit 2's static API act as, unless
    /// told otherwise: one device for both, as on an iPhone.
    public static let defaultDeviceID = "00000000-0000-4000-8000-000000000001"

    /// The store's clock. Only a `ManualClock` moves when the store's `advance` methods are called.
    public let clock: any StoreClock
    /// The lane every change and callback passes through.
    public let lane: StoreLane

    let state: Mutex<StoreState>
    /// The app the store sells to: what its receipts name.
    public let app: AppIdentity
    /// Signs the store's receipts; the test identity in `Receipts/` by default.
    public let signer: ReceiptSigner
    /// The last receipt signed for each device, to sign again only after a change.
    let receipts = Mutex<[String: IssuedReceipt]>([:])
    /// Signs the store's StoreKit 2 JWS (transactions, renewal info, app transactions): the App Store-shaped test
    /// identity, environment `Sandbox`, by default; an identity with one self-signed certificate signs environment
    /// `Xcode`.
    public let jwsSigner: JWSSigner
    /// The JWS signed so far, to sign again only after a change.
    let jwsCache = Mutex(JWSCache())
    /// How the JWS handed out are spoiled.
    let tampering = Mutex(JWSTampering.none)
    /// The handlers added with ``addChangeObserver(_:)``, by token, and the next token.
    let changeObservers = Mutex<(next: UInt64, handlers: [UInt64: @Sendable (StoreChange) -> Void])>((1, [:]))
    /// Whether any handler is added with ``addChangeObserver(_:)``: read without a lock after every change.
    let observingChanges = Atomic<Bool>(false)
    /// Whether any account was ever put in a family: read without a lock after every change, so that a store with no
    /// families pays one atomic read for Family Sharing.
    let familiesInUse: Atomic<Bool>
    /// The journal of a store opened from a state file; `nil` for an in-memory store, which then pays nothing for it.
    let journal: StoreJournal?
    /// Who hears that the clock moved.
    let clockObservers = ClockObservers()

    /// Creates a store.
    ///
    /// - Parameters:
    ///   - configuration: the catalog and default settings; the built-in demo catalog by default.
    ///   - clock: the clock; a manual clock at `ManualClock.defaultStart` by default.
    ///   - lane: how work runs: `.manual` (tests, feeds) or `.dispatch(queue)`; the main queue by default.
    ///   - retention: which finished transactions the history keeps.
    ///   - app: the app receipts are issued to.
    ///   - signer: signs receipts; by default with the test identity (never trusted unless a verifier asks for it).
    ///   - jwsSigner: signs StoreKit 2 JWS; by default with the JWS test identity, environment `Sandbox`. Pass
    ///     `JWSSigner(identity: .openStoreKitXcode)` for Xcode-shaped JWS (environment `Xcode`).
    public convenience init(
        configuration: StoreConfiguration = .demo,
        clock: any StoreClock = ManualClock(),
        lane: StoreLane.Mode = .dispatch(.main),
        retention: HistoryRetention = .all,
        app: AppIdentity = AppIdentity(),
        signer: ReceiptSigner = ReceiptSigner(),
        jwsSigner: JWSSigner = JWSSigner()
    ) {
        self.init(
            state: StoreState(configuration: configuration, retention: retention), clock: clock, lane: lane, app: app,
            signer: signer, jwsSigner: jwsSigner, journal: nil)
    }

    /// Creates a store from its state, with a journal when it is durable.
    init(
        state: StoreState, clock: any StoreClock, lane: StoreLane.Mode, app: AppIdentity, signer: ReceiptSigner,
        jwsSigner: JWSSigner = JWSSigner(), journal: StoreJournal?
    ) {
        self.app = app
        self.signer = signer
        self.jwsSigner = jwsSigner
        self.clock = clock
        var outbox: DeviceOutbox?
        if let journal, case .group = journal.durability.commit {
            // A run of the lane commits once for everything it changed, then devices hear of it.
            outbox = DeviceOutbox { journal.flushBeforeCallback() }
        }
        self.lane = StoreLane(mode: lane, outbox: outbox)
        self.familiesInUse = Atomic(!state.families.isEmpty)
        self.state = Mutex(state)
        self.journal = journal
    }

    /// The store behind `SKPaymentQueue.default()`: it loads the `.storekit` file named by the environment variable
    /// `OPENSTOREKIT_CONFIGURATION` when set (the demo catalog when not, or when the file cannot be read, which is
    /// reported on standard error), runs on the main queue and uses the system clock, at the session time rate
    /// (a ``TimeRateClock``).
    public static let `default`: SimulatedStore = {
        var configuration = StoreConfiguration.demo
        if let path = ProcessInfo.processInfo.environment["OPENSTOREKIT_CONFIGURATION"], !path.isEmpty {
            do throws(StoreSimulatorError) {
                configuration = try StoreConfiguration(contentsOf: URL(fileURLWithPath: path))
            } catch {
                FileHandle.standardError.write(
                    Data("openstorekit: OPENSTOREKIT_CONFIGURATION: \(error.detail); using the demo catalog\n".utf8)
                )
            }
        }
        let store = SimulatedStore(configuration: configuration, clock: TimeRateClock(), lane: .dispatch(.main))
        store.applyTimeRateToClock()
        return store
    }()

    // MARK: Running

    /// Runs the lane until no work is left (see ``StoreLane/runUntilIdle()``) and returns how many items ran.
    @discardableResult
    public func runUntilIdle() -> Int { lane.runUntilIdle() }

    /// Waits until the lane has no work left.
    public func idle() async { await lane.idle() }

    /// The current store time.
    public var now: Date { clock.now }

    // MARK: Configuration

    /// The catalog and the default settings.
    public var configuration: StoreConfiguration { state.withLock { $0.configuration } }

    /// The catalog.
    public var catalog: StoreCatalog { state.withLock { $0.configuration.catalog } }

    /// The settings in force.
    public var settings: StoreSettings { state.withLock { $0.settings } }

    /// Changes settings. A storefront change is announced to every open queue.
    public func updateSettings(_ change: (inout StoreSettings) -> Void) {
        journal?.enter()
        defer { journal?.end() }
        let (before, after, settings) = state.withLock { state -> (Storefront, Storefront, StoreSettings?) in
            let before = state.settings.storefront
            change(&state.settings)
            return (before, state.settings.storefront, journal == nil ? nil : state.settings)
        }
        // Recorded under the gate, before anyone hears of it.
        if let settings { journal?.record(.operation(.updateSettings(settings))) }
        if before != after { broadcast(.storefrontChanged(after)) }
    }

    /// Replaces the catalog and default settings, and puts the settings back to the new defaults. History stays.
    public func reconfigure(_ configuration: StoreConfiguration) {
        journal?.begin(.operation(.reconfigure(configuration)))
        defer { journal?.end() }
        state.withLock {
            $0.configuration = configuration
            $0.settings = configuration.settings
        }
    }

    /// Puts the settings back to the configuration's defaults; transactions stay.
    public func resetSettings() {
        let defaults = state.withLock { $0.configuration.settings }
        updateSettings { $0 = defaults }
    }

    /// Chooses the outcome of a coming purchase of `productID` (of any product when `nil`). Outcomes are used in the
    /// order they were scripted.
    public func script(_ outcome: ScriptedOutcome, forProduct productID: String? = nil) {
        journal?.begin(.operation(.script(outcome, productID: productID)))
        defer { journal?.end() }
        state.withLock { $0.scripted.append((productID, outcome)) }
    }

    // MARK: Products

    /// Looks up products the way `SKProductsRequest` does: the known ones in the order asked, and the unknown
    /// identifiers sorted.
    ///
    /// - Throws: the simulated `loadProducts` failure, when one is set.
    public func loadProducts(_ identifiers: [String]) throws(StoreFailure) -> (
        products: [ProductDefinition], invalidIdentifiers: [String]
    ) {
        try state.withLock { state throws(StoreFailure) in
            if let failure = state.settings.simulatedErrors[.loadProducts] { throw failure }
            var found: [ProductDefinition] = []
            var invalid: [String] = []
            var seen = Set<String>()
            for id in identifiers where seen.insert(id).inserted {
                if let product = state.configuration.catalog.product(id) {
                    found.append(product)
                } else {
                    invalid.append(id)
                }
            }
            return (found, invalid.sorted())
        }
    }

    // MARK: History

    /// Every transaction in the history, oldest first: purchases, renewals, failed and pending ones.
    public func allTransactions() -> [TransactionRecord] {
        state.withLock { state in
            state.records.loadAll()
            return state.records.values.sorted { $0.id < $1.id }
        }
    }

    /// The history of one account, oldest first.
    public func transactions(of account: String = SimulatedStore.defaultAccount) -> [TransactionRecord] {
        state.withLock { state in
            state.loadRecords(of: account)
            return state.records(of: account)
        }
    }

    /// The record with an identifier.
    public func transaction(_ id: UInt64) -> TransactionRecord? {
        state.withLock { $0.records[id] }
    }

    /// Removes every transaction from the history (and from devices' queues), so one-time purchases can be repeated.
    public func clearTransactions() {
        journal?.begin(.operation(.clearTransactions))
        defer { journal?.end() }
        let removed = state.withLock { state -> [String: [UInt64]] in
            state.records.removeAll()
            state.sharedRecordIDs.removeAll()
            state.subscriptions.removeAll()
            var removed: [String: [UInt64]] = [:]
            for device in state.devices.holdingTransactions where !device.queue.isEmpty {
                removed[device.id] = device.unfinished.map(\.id)
                device.queue.removeAll()
            }
            return removed
        }
        for (deviceID, ids) in removed.sorted(by: { $0.key < $1.key }) { send(.dropped(ids), to: deviceID) }
    }

    /// Deletes a transaction and the ones that descend from it (renewals, restored copies) from the history and from
    /// devices' queues.
    ///
    /// - Throws: `unknownTransaction` if no transaction has the identifier.
    public func deleteTransaction(_ id: UInt64) throws(StoreSimulatorError) {
        journal?.begin(.operation(.deleteTransaction(id)))
        defer { journal?.end() }
        let removed = try state.withLock { state throws(StoreSimulatorError) -> [String: [UInt64]] in
            state.loadRecords(holding: id)
            guard state.records[id] != nil else { throw Self.unknownTransaction(id) }
            var doomed = Set(state.records.descendants(of: id))
            doomed.insert(id)
            for doomedID in doomed {
                state.records[doomedID] = nil
                state.sharedRecordIDs.remove(doomedID)
            }
            state.subscriptions.removeAll(naming: doomed)
            var removed: [String: [UInt64]] = [:]
            for device in state.devices.holdingTransactions {
                let gone = device.unfinished.filter { doomed.contains($0.recordID ?? $0.id) }.map(\.id)
                guard !gone.isEmpty else { continue }
                removed[device.id] = gone
                device.removeAll { gone.contains($0.id) }
            }
            return removed
        }
        for (deviceID, ids) in removed.sorted(by: { $0.key < $1.key }) { send(.dropped(ids), to: deviceID) }
    }

    // MARK: Devices

    /// Attaches a front end to a device signed in to `account`, and returns its connection: the one way to add
    /// payments, finish, restore and read the device's unfinished transactions.
    ///
    /// The device is made if the store does not know it. Its unfinished transactions (from an earlier connection, or a
    /// process that stopped) stay, readable through ``DeviceConnection/unfinishedTransactions``; those still
    /// `.purchasing` are decided on the lane and the decided state reported. A connection attached under the
    /// `frontEnd` name of one already attached to the device takes over from it (the earlier one hears nothing more),
    /// as an app relaunched on the same device does; front ends under other names listen side by side.
    public func connect(
        deviceID: String,
        account: String = SimulatedStore.defaultAccount,
        frontEnd: String,
        listener: any DeviceListener
    ) -> DeviceConnection {
        journal?.begin(.connect(deviceID: deviceID, account: account))
        defer { journal?.end() }
        let (connection, purchasing) = state.withLock { state -> (DeviceConnection, [UInt64]) in
            let device = state.registerDevice(deviceID, account: account)
            let connection = DeviceConnection(store: self, device: device, frontEnd: frontEnd, listener: listener)
            device.attach(connection)
            var purchasing: [UInt64] = []
            for entry in device.queue where entry.transaction.state == .purchasing {
                purchasing.append(entry.transaction.id)
            }
            return (connection, purchasing)
        }
        for id in purchasing { lane.enqueue(connection, .process, id) }
        return connection
    }

    /// Signs a device in to an account as ``connect(deviceID:account:frontEnd:listener:)`` does, with nobody
    /// attached: what a replay of the journal does.
    func registerDevice(_ deviceID: String, account: String) {
        state.withLock { _ = $0.registerDevice(deviceID, account: account) }
    }

    /// The unfinished transactions of a device, in the order they arrived.
    public func unfinishedTransactions(deviceID: String) -> [DeviceTransaction] {
        state.withLock { $0.devices[deviceID]?.unfinished ?? [] }
    }

    /// The account a device is signed in to.
    public func account(ofDevice deviceID: String) -> String {
        state.withLock { $0.devices[deviceID]?.account ?? Self.defaultAccount }
    }

    // MARK: Delivery

    /// Sends an event to a device on the lane.
    func send(_ event: DeviceEvent, to deviceID: String) {
        lane.enqueue { [self] in
            emit(event, to: state.withLock { $0.devices[deviceID]?.audience() ?? .none })
        }
    }

    /// Sends an event to every open device on the lane, in device identifier order.
    func broadcast(_ event: DeviceEvent, account: String? = nil) {
        let ids = state.withLock { state in
            account.map { state.devices.ids(of: $0) } ?? state.devices.keys.sorted()
        }
        for id in ids { send(event, to: id) }
    }

    /// Tells a device's listeners of an event, in attach order, once the journal has committed what they will hear
    /// of. Call on the lane, outside the state lock.
    ///
    /// A durable store in group-commit mode holds the event in its lane's ``DeviceOutbox`` instead: the lane commits
    /// once at the end of the run and then delivers it.
    func emit(_ event: DeviceEvent, to audience: DeviceAudience) {
        guard !audience.isEmpty else { return }
        if let outbox = lane.outbox { return outbox.hold(.event(event, audience)) }
        journal?.flushBeforeCallback()
        audience.callEach { connection, listener in listener.connection(connection, didProduce: event) }
    }

    /// Tells a device's listeners that one transaction changed: ``emit(_:to:)`` of `.updated([transaction])`.
    func emitUpdate(_ transaction: DeviceTransaction, to audience: DeviceAudience) {
        guard !audience.isEmpty else { return }
        if let outbox = lane.outbox { return outbox.hold(.update(transaction, audience)) }
        journal?.flushBeforeCallback()
        audience.callEach { connection, listener in listener.connection(connection, didUpdate: transaction) }
    }

    /// Tells a device's listeners that one finished transaction left: ``emit(_:to:)`` of `.removed([id])`.
    func emitRemoval(_ transactionID: UInt64, to audience: DeviceAudience) {
        guard !audience.isEmpty else { return }
        if let outbox = lane.outbox { return outbox.hold(.removal(transactionID, audience)) }
        journal?.flushBeforeCallback()
        audience.callEach { connection, listener in listener.connection(connection, didRemove: transactionID) }
    }

    /// Delivers the events held for devices (group commit) and commits, before the store asks a listener something:
    /// a question comes after everything the listener was to hear before it, and after what it reveals is durable.
    func commitBeforeAsking() {
        lane.outbox?.deliver()
        journal?.flushBeforeCallback()
    }

    static func unknownTransaction(_ id: UInt64) -> StoreSimulatorError {
        StoreSimulatorError(
            .unknownTransaction,
            "no transaction has identifier \(id); list them with allTransactions()"
        )
    }
}
