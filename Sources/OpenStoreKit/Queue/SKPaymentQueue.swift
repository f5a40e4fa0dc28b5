public import Foundation
import StoreModels
public import StoreSimulator
import Synchronization

/// The payment queue: where an app adds payments, hears about transactions and finishes them.
///
/// A queue is one app's view of one store from one device. ``default()`` is the queue of iOS code, bound to
/// `SimulatedStore.default`; a test makes its own with ``init(store:deviceID:account:)``, so tests
/// running in parallel never share state.
///
/// Behaviour follows StoreKit's: observers are held weakly; `.purchasing` is reported in its own callback before the
/// outcome; every state is reported once; finishing removes a transaction and reports it through
/// `paymentQueue(_:removedTransactions:)`; a restore adds new `.restored` transactions and ends with exactly one of the
/// finished or failed callbacks; unfinished transactions of a queue reopened for the same device are reported again
/// when the first observer is added. Callbacks run on the store's `StoreLane`: the main queue by
/// default, or the caller of `runUntilIdle()` for a manual store.
public final class SKPaymentQueue: NSObject, @unchecked Sendable {
    // @unchecked: mutable state lives in `state`, behind a mutex; observers and the delegate are only called on the
    // store's lane.

    /// The device identifier of ``default()`` and of queues made without one: the simulated store's
    /// `SimulatedStore.defaultDeviceID`, which StoreKit 2's static API acts as too.
    public static let defaultDeviceID = SimulatedStore.defaultDeviceID

    /// The store this queue talks to.
    public let store: SimulatedStore
    /// The device this queue runs on; a queue made later with the same identifier takes over its unfinished
    /// transactions, as an app relaunched on the same device does.
    public let deviceID: String
    /// The App Store account the device is signed in to.
    public let account: String

    private struct State {
        var observers: [WeakObserver] = []
        /// The unfinished transactions in arrival order, found by store identifier. Each one also keeps, under this
        /// lock, the state observers last heard of it.
        var transactions = IdentifiedQueue<SKPaymentTransaction>()
        var delegate = WeakDelegate()
        var programmingErrorHandler: (@Sendable (String) -> Void)?
        var finishHook: (@Sendable (SKPaymentTransaction) -> Void)?

        mutating func append(_ transaction: SKPaymentTransaction) {
            transaction.joinQueue()
            transactions.append(transaction, id: transaction.storeIdentifier)
        }

        /// The observers still alive, in the order they were added.
        func liveObservers() -> Observers {
            var first: (any SKPaymentTransactionObserver)?
            var all: [any SKPaymentTransactionObserver] = []
            for entry in observers {
                guard let observer = entry.observer else { continue }
                guard let earlier = first else {
                    first = observer
                    continue
                }
                if all.isEmpty { all.append(earlier) }
                all.append(observer)
            }
            if !all.isEmpty { return .many(all) }
            return first.map { .one($0) } ?? .none
        }
    }

    private let state = Mutex(State())
    /// The queue's attachment to its device in the store, under ``frontEnd``.
    private let connection: DeviceConnection
    /// Forwards the device's events to the queue; held here, weakly by the connection.
    private let listener: QueueListener

    /// The front-end name StoreKit 1 queues attach to their device under: a queue made later for the same device takes
    /// over from an earlier one, as an app relaunched on the device does.
    static let frontEnd = "StoreKit 1"

    /// Creates a queue bound to a store.
    ///
    /// Unfinished transactions the store holds for `deviceID` (from an earlier queue, or a process that stopped) are
    /// reported to the first observer added; transactions that were `.purchasing` go on.
    public init(
        store: SimulatedStore,
        deviceID: String = SKPaymentQueue.defaultDeviceID,
        account: String = SimulatedStore.defaultAccount
    ) {
        self.store = store
        self.deviceID = deviceID
        self.account = account
        let listener = QueueListener()
        self.listener = listener
        self.connection = store.connect(
            deviceID: deviceID, account: account, frontEnd: Self.frontEnd, listener: listener)
        super.init()
        listener.queue = self
        // The store decides the `.purchasing` ones on its lane; an event that came first already made its object.
        let objects = connection.unfinishedTransactions.map { makeTransaction($0) }
        state.withLock { state in
            for object in objects where state.transactions.position(of: object.storeIdentifier) == nil {
                state.append(object)
            }
        }
    }

    private static let sharedDefault = SKPaymentQueue(store: .default)

    /// The app's payment queue, bound to `SimulatedStore.default`.
    public static func `default`() -> SKPaymentQueue { sharedDefault }

    /// Whether the device of ``default()`` may make payments: whether its account may (a child's account may carry
    /// its own setting, `SimulatedStore.updateAccountSettings(_:_:)`).
    public static func canMakePayments() -> Bool { sharedDefault.canMakePayments() }

    /// Whether this queue's device may make payments: its account's own setting, else the store-wide one.
    public func canMakePayments() -> Bool { store.paymentsAllowed(account: account) }

    /// The storefront of the queue's account.
    public var storefront: SKStorefront? { SKStorefront(store.settings.storefront) }

    /// Decides storefront changes and price consent; held weakly.
    public weak var delegate: (any SKPaymentQueueDelegate)? {
        get { state.withLock { $0.delegate.delegate } }
        set { state.withLock { $0.delegate = WeakDelegate(delegate: newValue) } }
    }

    /// Called instead of trapping when the app makes a programming error StoreKit raises an exception for, such as
    /// finishing a `.purchasing` transaction. `nil` (the default) traps with StoreKit's message.
    public var programmingErrorHandler: (@Sendable (String) -> Void)? {
        get { state.withLock { $0.programmingErrorHandler } }
        set { state.withLock { $0.programmingErrorHandler = newValue } }
    }

    /// Called with each transaction the app asks to finish, when ``finishTransaction(_:)`` is called and before anything
    /// else happens: a hook for harnesses that audit the app, such as a `DeliveryAudit` (in Purchases) checking that
    /// content was delivered before finishing. `nil` by default.
    public var willFinishTransaction: (@Sendable (SKPaymentTransaction) -> Void)? {
        get { state.withLock { $0.finishHook } }
        set { state.withLock { $0.finishHook = newValue } }
    }

    /// The observers, in the order they were added; held weakly.
    public var transactionObservers: [any SKPaymentTransactionObserver] {
        state.withLock { $0.observers.compactMap(\.observer) }
    }

    /// The unfinished transactions, in the order they arrived.
    public var transactions: [SKPaymentTransaction] { state.withLock { Array($0.transactions) } }

    /// Adds an observer (held weakly). Transactions not yet reported to any observer are reported to it.
    ///
    /// When it is the first observer and a price increase of the account waits for consent, the ``delegate`` is then
    /// asked whether to show the price-consent sheet (`paymentQueueShouldShowPriceConsent(_:)`), as StoreKit does at
    /// launch: set the delegate before adding observers.
    public func add(_ observer: any SKPaymentTransactionObserver) {
        let first = state.withLock { state -> Bool in
            let first = state.liveObservers().isEmpty
            state.observers.removeAll { $0.observer == nil || $0.observer === observer }
            state.observers.append(WeakObserver(observer: observer))
            return first
        }
        store.lane.enqueue { [self] in
            deliver(transactions)
            if first, !store.pendingPriceConsent(account: account).isEmpty { askToShowPriceConsent() }
        }
    }

    /// Removes an observer.
    public func remove(_ observer: any SKPaymentTransactionObserver) {
        state.withLock { state in state.observers.removeAll { $0.observer == nil || $0.observer === observer } }
    }

    /// Adds a payment: a new transaction joins ``transactions``, is reported `.purchasing`, and then with the store's
    /// outcome.
    ///
    /// An unknown product or a quantity outside 1...10 fails the transaction with `SKError.Code.paymentInvalid`.
    public func add(_ payment: SKPayment) {
        add(payment, registering: nil)
    }

    /// Adds a payment and hands its transaction to `register` before anything about it can be reported, so that code
    /// on another thread can tell its own transaction from others when the callbacks come.
    package func add(_ payment: SKPayment, registering register: ((SKPaymentTransaction) -> Void)?) {
        let copy = SKPayment(fields: payment.fields.withLock { $0 })
        // The object joins the queue before the store schedules its `.purchasing` report and its decision.
        connection.submit(copy.request) { id in
            let transaction = SKPaymentTransaction(purchasing: id, payment: copy)
            register?(transaction)
            state.withLock { $0.append(transaction) }
        }
    }

    /// Finishes a purchased, restored or failed transaction: it leaves the queue and observers hear of it through
    /// `paymentQueue(_:removedTransactions:)`. Finishing twice is harmless.
    ///
    /// Finishing a `.purchasing` or `.deferred` transaction is a programming error (see ``programmingErrorHandler``).
    public func finishTransaction(_ transaction: SKPaymentTransaction) {
        state.withLock { $0.finishHook }?(transaction)
        let current = transaction.transactionState
        guard current != .purchasing, current != .deferred else {
            let message =
                current == .purchasing
                ? "Cannot finish a purchasing transaction" : "Cannot finish a deferred transaction"
            if let handler = programmingErrorHandler {
                handler(message)
                return
            }
            preconditionFailure(message)
        }
        connection.finish(transaction.storeIdentifier)
    }

    /// Restores completed transactions: one new `.restored` transaction per non-consumable and subscription purchase,
    /// then `paymentQueueRestoreCompletedTransactionsFinished(_:)`, or
    /// `paymentQueue(_:restoreCompletedTransactionsFailedWithError:)` on failure.
    public func restoreCompletedTransactions() {
        restoreCompletedTransactions(withApplicationUsername: nil)
    }

    /// Restores the completed transactions bought with an application username (and those bought without one).
    public func restoreCompletedTransactions(withApplicationUsername username: String?) {
        connection.restore(applicationUsername: username)
    }

    // MARK: Delivery (on the store's lane)

    func handle(_ event: DeviceEvent) {
        switch event {
        case .updated(let updates):
            if updates.count == 1 {
                handleUpdate(updates[0])
            } else {
                deliver(updates.map(object(for:)))
            }
        case .removed(let ids):
            if ids.count == 1 {
                handleRemoval(ids[0])
            } else {
                let removed = take(ids)
                guard !removed.isEmpty else { return }
                observers.callEach { $0.paymentQueue(self, removedTransactions: removed) }
            }
        case .dropped(let ids):
            _ = take(ids)
        case .restoreFinished:
            observers.callEach { $0.paymentQueueRestoreCompletedTransactionsFinished(self) }
        case .restoreFailed(let failure):
            observers.callEach { $0.paymentQueue(self, restoreCompletedTransactionsFailedWithError: SKError(failure)) }
        case .entitlementsRevoked(let productIDs):
            observers.callEach { $0.paymentQueue(self, didRevokeEntitlementsForProductIdentifiers: productIDs) }
        case .storefrontChanged:
            observers.callEach { $0.paymentQueueDidChangeStorefront(self) }
        case .refunded, .refundReversed, .purchasedOnOtherDevice:
            // StoreKit 1 has no callback for a refund or its reversal, and does not get other devices' purchases as transactions.
            break
        case .priceConsentNeeded:
            // Only an app that is running (it added an observer) hears of it; one that is not is asked at its launch.
            guard !observers.isEmpty else { return }
            askToShowPriceConsent()
        case .purchaseIntent(let productID, _):
            askToAddStorePayment(productID, observers: observers)
        }
    }

    /// Asks each observer whether to add the payment of a purchase the customer started in the App Store, and adds
    /// it once if one says yes (`paymentQueue(_:shouldAddStorePayment:for:)`).
    private func askToAddStorePayment(_ productID: String, observers: Observers) {
        guard !observers.isEmpty else { return }
        let settings = store.settings
        guard let definition = store.catalog.product(productID) else { return }
        let product = SKProduct(definition, localeIdentifier: settings.locale, storefront: settings.storefront)
        let payment = SKPayment(product: product)
        var accepted = false
        observers.callEach { observer in
            if observer.paymentQueue(self, shouldAddStorePayment: payment, for: product) { accepted = true }
        }
        if accepted { add(payment) }
    }

    /// Asks the delegate whether to show the price-consent sheet now (yes without one), and shows it if so.
    private func askToShowPriceConsent() {
        let show = delegate?.paymentQueueShouldShowPriceConsent(self) ?? true
        if show { store.showPriceConsent(account: account) }
    }

    /// Handles `.updated([update])`: the common case, a transaction the queue holds, takes one lock round trip.
    func handleUpdate(_ update: DeviceTransaction) {
        // Written to rather than returned: an optional tuple of the results is copied out and destroyed again.
        var observers = Observers.none
        var found: SKPaymentTransaction?
        var fresh = false
        state.withLock { state in
            guard let existing = state.transactions.element(withID: update.id) else { return }
            found = existing
            observers = state.liveObservers()
            fresh = existing.apply(update, markingHeard: !observers.isEmpty)
        }
        guard let transaction = found else {
            deliver(object(for: update))
            return
        }
        guard fresh else { return }
        report(transaction, to: observers, removed: false)
    }

    /// Handles `.removed([id])`.
    func handleRemoval(_ id: UInt64) {
        // The observers are read in the same lock round trip as the removal.
        var observers = Observers.none
        var found: SKPaymentTransaction?
        state.withLock { state in
            guard let position = state.transactions.position(of: id) else { return }
            let transaction = state.transactions.remove(at: position)
            transaction.leaveQueue()
            found = transaction
            observers = state.liveObservers()
        }
        guard let removed = found, !observers.isEmpty else { return }
        report(removed, to: observers, removed: true)
    }

    func shouldContinue(_ transaction: DeviceTransaction, in storefront: Storefront) -> Bool {
        guard let delegate else { return true }
        let object = state.withLock { state in state.transactions.element(withID: transaction.id) }
        return delegate.paymentQueue(
            self,
            shouldContinue: object ?? makeTransaction(transaction),
            in: SKStorefront(storefront)
        )
    }

    /// The observers still alive, in the order they were added.
    private var observers: Observers { state.withLock { $0.liveObservers() } }

    /// Reports a transaction if no observer has heard its current state yet.
    private func deliver(_ transaction: SKPaymentTransaction) {
        let observers = state.withLock { state -> Observers in
            let observers = state.liveObservers()
            guard !observers.isEmpty, transaction.markFresh() else { return .none }
            return observers
        }
        guard !observers.isEmpty else { return }
        report(transaction, to: observers, removed: false)
    }

    /// Tells observers about one transaction, updated or removed.
    private func report(_ transaction: SKPaymentTransaction, to observers: Observers, removed: Bool) {
        let list = [transaction]
        observers.callEach { observer in
            if removed {
                observer.paymentQueue(self, removedTransactions: list)
            } else {
                observer.paymentQueue(self, updatedTransactions: list)
            }
        }
    }

    /// Reports the transactions whose current state no observer has heard yet, in one callback per observer.
    private func deliver(_ candidates: [SKPaymentTransaction]) {
        let (observers, fresh) = state.withLock { state -> (Observers, [SKPaymentTransaction]) in
            let observers = state.liveObservers()
            guard !observers.isEmpty else { return (.none, []) }
            return (observers, candidates.filter { $0.markFresh() })
        }
        guard !fresh.isEmpty else { return }
        observers.callEach { $0.paymentQueue(self, updatedTransactions: fresh) }
    }

    /// The queue's object for a store transaction, made and appended if new, brought up to date.
    private func object(for update: DeviceTransaction) -> SKPaymentTransaction {
        if let existing = state.withLock({ state in state.transactions.element(withID: update.id) }) {
            existing.apply(update)
            return existing
        }
        let created = makeTransaction(update)
        state.withLock { $0.append(created) }
        return created
    }

    private func makeTransaction(_ update: DeviceTransaction) -> SKPaymentTransaction {
        let original = update.originalID.flatMap { store.transaction($0) }.map { SKPaymentTransaction(original: $0) }
        return SKPaymentTransaction(update, payment: SKPayment(request: update.payment), original: original)
    }

    /// Removes the transactions with these identifiers and returns them, in queue order.
    private func take(_ ids: [UInt64]) -> [SKPaymentTransaction] {
        if ids.count == 1 { return take(ids[0]) }
        let wanted = Set(ids)
        return state.withLock { state in
            let taken = state.transactions.filter { wanted.contains($0.storeIdentifier) }
            state.transactions.removeAll { wanted.contains($0.storeIdentifier) }
            for transaction in taken { transaction.leaveQueue() }
            return taken
        }
    }

    /// Removes the transaction with an identifier and returns it alone, or nothing.
    private func take(_ id: UInt64) -> [SKPaymentTransaction] {
        state.withLock { state in
            guard let position = state.transactions.position(of: id) else { return [] }
            let transaction = state.transactions.remove(at: position)
            transaction.leaveQueue()
            return [transaction]
        }
    }
}

/// The observers a callback goes to: most queues have one, which needs no array.
private enum Observers {
    case none
    case one(any SKPaymentTransactionObserver)
    case many([any SKPaymentTransactionObserver])

    var isEmpty: Bool {
        if case .none = self { return true }
        return false
    }

    /// Calls a body with each observer, in order.
    func callEach(_ body: (any SKPaymentTransactionObserver) -> Void) {
        switch self {
        case .none:
            break
        case .one(let observer):
            body(observer)
        case .many(let all):
            for observer in all { body(observer) }
        }
    }
}

/// The queue's listener on its device: forwards the store's events to the queue. A separate object, so that the queue's
/// public API does not show the store's listener protocol; the connection holds it weakly and the queue strongly.
private final class QueueListener: DeviceListener, @unchecked Sendable {
    // @unchecked: `queue` is set once, by the queue's initializer, before any event can come.
    weak var queue: SKPaymentQueue?

    func connection(_ connection: DeviceConnection, didProduce event: DeviceEvent) {
        queue?.handle(event)
    }

    func connection(_ connection: DeviceConnection, didUpdate transaction: DeviceTransaction) {
        queue?.handleUpdate(transaction)
    }

    func connection(_ connection: DeviceConnection, didRemove transactionID: UInt64) {
        queue?.handleRemoval(transactionID)
    }

    func connection(
        _ connection: DeviceConnection, shouldContinue transaction: DeviceTransaction, in storefront: Storefront
    ) -> Bool {
        queue?.shouldContinue(transaction, in: storefront) ?? true
    }
}

/// A weak reference to an observer. A class, so that reading the reference loads it in place: a struct in an array
/// would be copied first, which copies and then destroys the weak reference.
private final class WeakObserver: @unchecked Sendable {
    // @unchecked: observers are app objects StoreKit calls on one queue; the queue calls them only on its store's lane.
    weak let observer: (any SKPaymentTransactionObserver)?

    init(observer: any SKPaymentTransactionObserver) {
        self.observer = observer
    }
}

/// A weak reference to a delegate.
private struct WeakDelegate: @unchecked Sendable {
    // @unchecked: as for observers, the delegate is called only on the store's lane.
    weak var delegate: (any SKPaymentQueueDelegate)?
}
