import Foundation
public import OpenStoreKit
public import Purchases
import Synchronization

/// Records a presentation session and reports every broken rule: the ordering of purchase and restore callbacks,
/// cancelled and pending purchases reported as failures, purchase callbacks in observer mode, screens shown without
/// `flow_screen_showed`, an app that dismisses on a cancelled purchase or without the wanted access level, a paywall
/// shown over an onboarding, and transactions finished before their content was delivered.
///
/// Attach it to a ``PresentationContext`` (``PresentationContext/add(_:)``) to record every controller of the
/// context, or feed it entries yourself with ``record(_:)``. To catch an app that finishes before delivering,
/// ``watch(_:isDelivered:)`` the app's payment queue with a probe that says whether a transaction's content was
/// delivered: when the store reports a purchased or restored transaction finished and the probe says no, the rule is
/// broken. The probe runs when the finish reaches the store, after the app's observer callback returns, so an app
/// that finishes and then delivers inside the same callback is not caught; one that finishes and delivers later, or
/// whose delivery fails after it finished, is.
public final class ConformanceChecker: Sendable {
    /// Whether the session's purchase module ran in full or observer mode.
    public let mode: PurchaseController.Mode
    /// The access level a restore must grant before the app dismisses the paywall; `nil` skips that rule.
    public let requiredAccessLevel: String?

    private let recorded = Mutex<[SessionEntry]>([])
    private let watchers = Mutex<[QueueWatcher]>([])

    /// Creates a checker.
    public init(mode: PurchaseController.Mode = .full, requiredAccessLevel: String? = nil) {
        self.mode = mode
        self.requiredAccessLevel = requiredAccessLevel
    }

    /// Records an entry.
    public func record(_ entry: SessionEntry) {
        recorded.withLock { $0.append(entry) }
    }

    /// Everything recorded, in order.
    public var entries: [SessionEntry] { recorded.withLock { $0 } }

    /// The delegate callbacks recorded, in order.
    public var events: [PaywallEvent] {
        entries.compactMap { entry in
            if case .callback(let event) = entry.fact { return event }
            return nil
        }
    }

    /// Forgets everything recorded.
    public func reset() {
        recorded.withLock { $0.removeAll() }
    }

    /// Watches a payment queue: its transactions' states, and whether purchased and restored ones were delivered when
    /// the store reported them finished (`isDelivered` answers that, e.g. from a `DeliveryJournal` or the app's own
    /// records). The checker keeps the observer it adds.
    public func watch(_ queue: SKPaymentQueue, isDelivered: @escaping @Sendable (SKPaymentTransaction) -> Bool) {
        let watcher = QueueWatcher(checker: self, isDelivered: isDelivered)
        watchers.withLock { $0.append(watcher) }
        queue.add(watcher)
    }

    /// Every broken rule. With `sessionEnded`, purchases and restores still running count as never ended.
    public func violations(sessionEnded: Bool = true) -> [ConformanceViolation] {
        var evaluation = Evaluation(checker: self)
        for (index, entry) in entries.enumerated() { evaluation.check(entry, at: index) }
        if sessionEnded { evaluation.finish() }
        return evaluation.found
    }

    /// Whether no rule is broken.
    public var isConformant: Bool { violations().isEmpty }

    /// The state of one check run over the entries.
    private struct Evaluation {
        struct Running {
            var purchase: (productId: String, index: Int)?
            var restore: Int?
            var screen: (id: String, index: Int, delegated: Bool, counted: Bool)?
        }

        let checker: ConformanceChecker
        var found: [ConformanceViolation] = []
        var running: [PresentedScreen?: Running] = [:]
        var onScreen: [PresentedScreen] = []
        var transactions: [String: (state: SKPaymentTransactionState, error: SKError.Code?)] = [:]

        mutating func add(_ rule: ConformanceRule, _ message: String, _ index: Int?) {
            found.append(ConformanceViolation(rule: rule, message: message, entryIndex: index))
        }

        mutating func check(_ entry: SessionEntry, at index: Int) {
            let source = entry.source
            let name = source.map(\.description) ?? "the queue"
            switch entry.fact {
            case .callback(let event):
                if checker.mode == .observer, event.isPurchaseCallback {
                    add(.purchaseCallbackInObserverMode, "\(name) called \(event.name) in observer mode", index)
                }
                callback(event, source: source, name: name, index: index)
            case .screenShown(let id):
                closeScreen(of: source, name: name)
                running[source, default: Running()].screen = (id, index, false, false)
            case .counted(let record):
                if record.name == "flow_screen_showed", let screen = running[source]?.screen,
                    record.params["screen_id"]?.stringValue == screen.id
                {
                    running[source]?.screen?.counted = true
                }
            case .presented:
                if let source, source.kind != .onboarding,
                    let onboarding = onScreen.first(where: { $0.kind == .onboarding })
                {
                    add(
                        .paywallOverOnboarding,
                        "\(source) came on screen while \(onboarding) was still there; dismiss the onboarding first",
                        index)
                }
                if let source { onScreen.append(source) }
            case .dismissed:
                if let source, let position = onScreen.lastIndex(of: source) { onScreen.remove(at: position) }
                dismissal(during: entry.during, name: name, index: index)
            case .onboarding:
                break
            case .transactionUpdated(let productId, _, let state, let error):
                transactions[productId] = (state, error)
            case .transactionFinished(let productId, let transactionId, let delivered):
                if !delivered {
                    add(
                        .finishedBeforeDelivery,
                        "transaction \(transactionId) of \(productId) was finished before its content was delivered",
                        index)
                }
            }
        }

        mutating func callback(_ event: PaywallEvent, source: PresentedScreen?, name: String, index: Int) {
            var state = running[source, default: Running()]
            defer { running[source] = state }
            switch event {
            case .didStartPurchase(let product):
                if let open = state.purchase {
                    add(
                        .purchaseStartedTwice,
                        "\(name) started a purchase of \(product.vendorProductId) while the purchase of "
                            + "\(open.productId) (entry \(open.index)) had not ended",
                        index)
                }
                state.purchase = (product.vendorProductId, index)
            case .didFinishPurchase(let product, _), .didFailPurchase(let product, _):
                if case .didFailPurchase(_, let error) = event { failure(product, error, name: name, index: index) }
                guard let open = state.purchase else {
                    add(
                        .purchaseEndedWithoutStart,
                        "\(name) called \(event.name) for \(product.vendorProductId) without a running purchase",
                        index)
                    return
                }
                if open.productId != product.vendorProductId {
                    add(
                        .purchaseProductMismatch,
                        "\(name) started a purchase of \(open.productId) but ended one of \(product.vendorProductId)",
                        index)
                }
                state.purchase = nil
            case .didStartRestore:
                if let open = state.restore {
                    add(.restoreStartedTwice, "\(name) started a restore while the one of entry \(open) ran", index)
                }
                state.restore = index
            case .didFinishRestore, .didFailRestore:
                if state.restore == nil {
                    add(.restoreEndedWithoutStart, "\(name) called \(event.name) without a running restore", index)
                }
                state.restore = nil
            case .didReceiveAnalyticEvent(let eventName, let params):
                if eventName == "flow_screen_showed", let screen = state.screen,
                    params["screen_id"]?.stringValue == screen.id
                {
                    state.screen?.delegated = true
                }
            default:
                break
            }
        }

        mutating func failure(_ product: PaywallProduct, _ error: PaywallEventsError, name: String, index: Int) {
            let seen = transactions[product.vendorProductId]
            if error.purchasesError?.storeCode == .paymentCancelled
                || (seen?.state == .failed && seen?.error == .paymentCancelled)
            {
                add(
                    .cancelReportedAsFailure,
                    "\(name) reported the cancelled purchase of \(product.vendorProductId) through didFailPurchase; "
                        + "a cancel finishes with a cancelled result",
                    index)
            }
            if seen?.state == .deferred {
                add(
                    .pendingReportedAsFailure,
                    "\(name) reported the pending purchase of \(product.vendorProductId) through didFailPurchase; "
                        + "it finishes with a pending result",
                    index)
            }
        }

        mutating func dismissal(during: PaywallEvent?, name: String, index: Int) {
            switch during {
            case .didFinishPurchase(let product, .cancelled)?:
                add(
                    .dismissedOnCancel,
                    "\(name) was dismissed when the purchase of \(product.vendorProductId) was cancelled", index)
            case .didFinishRestore(let profile)?:
                if let level = checker.requiredAccessLevel, !profile.isActive(level) {
                    add(
                        .dismissedWithoutAccess,
                        "\(name) was dismissed after a restore whose profile has no active \(level) access level",
                        index)
                }
            default:
                break
            }
        }

        mutating func closeScreen(of source: PresentedScreen?, name: String) {
            guard let screen = running[source]?.screen, !(screen.delegated && screen.counted) else { return }
            let missing = [screen.delegated ? nil : "the delegate", screen.counted ? nil : "the library's analytics"]
                .compactMap(\.self).joined(separator: " and ")
            add(
                .screenNotReported,
                "\(name) showed screen \(screen.id) without flow_screen_showed reaching \(missing)", screen.index)
        }

        mutating func finish() {
            for (source, state) in running.sorted(by: { ($0.key?.description ?? "") < ($1.key?.description ?? "") }) {
                let name = source.map(\.description) ?? "the queue"
                if let open = state.purchase {
                    add(
                        .purchaseNotEnded,
                        "\(name) started a purchase of \(open.productId) (entry \(open.index)) that never ended", nil)
                }
                if let open = state.restore {
                    add(.restoreNotEnded, "\(name) started a restore (entry \(open)) that never ended", nil)
                }
                closeScreen(of: source, name: name)
            }
        }
    }
}

/// The observer a checker adds to a watched queue.
private final class QueueWatcher: NSObject, SKPaymentTransactionObserver, @unchecked Sendable {
    // @unchecked: both stored properties are constants, and each is Sendable.
    let checker: ConformanceChecker
    let isDelivered: @Sendable (SKPaymentTransaction) -> Bool

    init(checker: ConformanceChecker, isDelivered: @escaping @Sendable (SKPaymentTransaction) -> Bool) {
        self.checker = checker
        self.isDelivered = isDelivered
    }

    func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
        for transaction in transactions {
            checker.record(
                SessionEntry(
                    source: nil,
                    fact: .transactionUpdated(
                        productId: transaction.payment.productIdentifier,
                        transactionId: transaction.storeIdentifier,
                        state: transaction.transactionState,
                        error: (transaction.error as? SKError)?.code
                    ),
                    time: queue.environment.now
                )
            )
        }
    }

    func paymentQueue(_ queue: SKPaymentQueue, removedTransactions transactions: [SKPaymentTransaction]) {
        for transaction in transactions
        where transaction.transactionState == .purchased || transaction.transactionState == .restored {
            checker.record(
                SessionEntry(
                    source: nil,
                    fact: .transactionFinished(
                        productId: transaction.payment.productIdentifier,
                        transactionId: transaction.storeIdentifier,
                        delivered: isDelivered(transaction)
                    ),
                    time: queue.environment.now
                )
            )
        }
    }
}
