public import Foundation
import Ledger
public import OpenStoreKit
import Synchronization

/// The purchase-handling module every app writes, done right: load products, buy, restore, deliver content before
/// finishing, exactly once.
///
/// It works on any queue (``init(queue:mode:journal:retryPolicy:entitlements:purchasesSource:deliver:)``),
/// `SKPaymentQueue.default()` by default.
/// Compared with the classic module it closes the known holes:
/// - purchase and restore each have their own in-progress guard, and every completion is called exactly once;
/// - a restore completes on the queue's finished or failed callback, with the set of restored products;
/// - Ask to Buy completes with ``PurchaseOutcome/pending``; the approval arrives later through ``updates``, also after
///   a restart;
/// - content is delivered through one hook, before finishing, for every transaction however it arrives (purchases,
///   restores, renewals, approvals, purchases made elsewhere, redelivery after a restart), and a ``DeliveryJournal``
///   keeps a transaction redelivered after a crash from being granted twice (on a durable store, by default, one kept
///   in the store's own state file);
/// - the ``profile`` follows the store's clock: when an access level ends (a subscription expires, a grace period
///   ends) it is computed again and published once to ``profileUpdates``;
/// - loading products sends one request per set of identifiers, however many callers wait for it.
///
/// In ``Mode/observer`` mode the app runs its own purchase code: the controller only watches the queue.
public final class PurchaseController: NSObject, SKPaymentTransactionObserver, SKProductsRequestDelegate,
    @unchecked Sendable
{
    // @unchecked: all mutable state lives in `state`, behind a mutex; callbacks are called outside the lock.

    /// Whether the controller handles transactions or only watches them.
    public enum Mode: Sendable, Hashable {
        /// Delivers and finishes transactions.
        case full
        /// Watches the queue; the app's own code delivers and finishes.
        case observer
    }

    /// A completion of a purchase.
    public typealias PurchaseCompletion = @Sendable (Result<PurchaseOutcome, PurchasesError>) -> Void
    /// A completion of a restore: the restored products.
    public typealias RestoreCompletion = @Sendable (Result<Set<String>, PurchasesError>) -> Void
    /// A completion of a products load.
    public typealias ProductsCompletion = @Sendable (Result<ProductsResult, PurchasesError>) -> Void

    private struct PendingPurchase {
        let transactionID: UInt64
        let completion: PurchaseCompletion
    }

    private struct ProductsLoad {
        let identifiers: Set<String>
        var request: SKProductsRequest
        var attempts: Int
        var completions: [ProductsCompletion]
    }

    private struct State {
        var products: [String: SKProduct] = [:]
        var loads: [String: ProductsLoad] = [:]
        var purchase: PendingPurchase?
        var purchaseStarting = false
        var restore: RestoreCompletion?
        var restored = Set<String>()
        var continuations: [UUID: AsyncStream<PurchaseUpdate>.Continuation] = [:]
        var profile = Profile.empty
        /// When the profile can next change by time alone (an expiry, the end of a grace period).
        var profileChanges: Date?
        var profileContinuations: [UUID: AsyncStream<Profile>.Continuation] = [:]
    }

    /// The queue the controller works on.
    public let queue: SKPaymentQueue
    /// Full or observer mode.
    public let mode: Mode
    /// The record of delivered transactions.
    public let journal: any DeliveryJournal
    /// How failed products loads are retried.
    public let retryPolicy: RetryPolicy
    /// Which products grant which access levels.
    public let entitlements: EntitlementPolicy
    /// Where verified purchases come from; `nil` leaves the profile empty.
    public let purchasesSource: (any VerifiedPurchasesSource)?
    private let deliver: @Sendable (Delivery) throws -> Void
    private let state = Mutex(State())
    /// The watch on the store's clock: the store holds it weakly, the controller strongly.
    private let clockObservation: StoreClockObservation
    private let clockWatch: ClockWatch

    /// Hears the store's clock move for the controller: it holds the controller weakly.
    private final class ClockWatch: Sendable {
        private struct Target {
            weak var controller: PurchaseController?
        }

        private let target = Mutex(Target())

        func watch(for controller: PurchaseController) {
            target.withLock { $0.controller = controller }
        }

        func clockDidMove(to date: Date) {
            target.withLock { $0.controller }?.timePassed(to: date)
        }
    }

    /// Creates a controller and adds it to the queue as an observer.
    ///
    /// - Parameters:
    ///   - queue: the payment queue; `SKPaymentQueue.default()` by default.
    ///   - mode: `.full` delivers and finishes; `.observer` only watches.
    ///   - journal: where deliveries are recorded before finishing. By default, on a durable store (one opened with a
    ///     state path) a ``LedgerDeliveryJournal`` in the store's own state file, so deliveries survive a restart with
    ///     the store's transactions; on an in-memory store an ``InMemoryDeliveryJournal``.
    ///   - retryPolicy: how failed products loads are retried.
    ///   - entitlements: which products grant which access levels.
    ///   - purchasesSource: where the verified purchases behind ``profile`` come from.
    ///   - deliver: unlocks the content of a transaction; throw to leave the transaction unfinished (it comes back).
    public init(
        queue: SKPaymentQueue = .default(),
        mode: Mode = .full,
        journal: (any DeliveryJournal)? = nil,
        retryPolicy: RetryPolicy = .none,
        entitlements: EntitlementPolicy = EntitlementPolicy(accessLevels: [:]),
        purchasesSource: (any VerifiedPurchasesSource)? = nil,
        deliver: @escaping @Sendable (Delivery) throws -> Void
    ) {
        self.queue = queue
        self.mode = mode
        self.journal = journal ?? Self.defaultJournal(for: queue.environment)
        self.retryPolicy = retryPolicy
        self.entitlements = entitlements
        self.purchasesSource = purchasesSource
        self.deliver = deliver
        let watch = ClockWatch()
        self.clockWatch = watch
        self.clockObservation = queue.environment.observeClock { watch.clockDidMove(to: $0) }
        super.init()
        clockWatch.watch(for: self)
        queue.add(self)
    }

    /// The journal of a controller given none: in the state file of a durable store, in memory otherwise.
    private static func defaultJournal(for store: any StoreEnvironment) -> any DeliveryJournal {
        guard let ledger = store.ledger else { return InMemoryDeliveryJournal() }
        return LedgerDeliveryJournal(database: ledger, clock: store.clock)
    }

    deinit {
        let (updates, profiles) = state.withLock { ($0.continuations.values, $0.profileContinuations.values) }
        for continuation in updates { continuation.finish() }
        for continuation in profiles { continuation.finish() }
    }

    // MARK: Profile

    /// The profile as last computed from a verified receipt (``refreshProfile()``), computed again first when the
    /// store's clock has passed a moment where an access level changes (an expiry, the end of a grace period). When
    /// that computation fails (the receipt is missing or does not verify), the last good profile stays and is not
    /// computed again by reads or clock moves, only by the next delivery, restore, revocation or
    /// ``refreshProfile()``.
    public var profile: Profile {
        let (profile, changes) = state.withLock { ($0.profile, $0.profileChanges) }
        guard let changes, queue.environment.now >= changes else { return profile }
        return (try? refreshProfile()) ?? self.state.withLock { $0.profile }
    }

    /// Computes the profile again from the verified receipt, publishes it to ``profileUpdates`` when it changed, and
    /// returns it. The controller does this itself after every delivery, restore and revocation.
    ///
    /// - Throws: ``PurchasesError`` `receiptInvalid` when the receipt is missing or does not verify; the last good
    ///   profile stays, and reads of ``profile`` and clock moves no longer compute it again (each would verify the
    ///   same failing receipt).
    @discardableResult
    public func refreshProfile() throws(PurchasesError) -> Profile {
        guard let purchasesSource else { return profile }
        let verified: VerifiedPurchases
        do {
            verified = try purchasesSource.verifiedPurchases()
        } catch {
            state.withLock { $0.profileChanges = nil }
            throw error
        }
        let fresh = entitlements.profile(
            from: verified.purchases,
            at: verified.date,
            gracePeriods: verified.gracePeriods,
            billingRetries: verified.billingRetries
        )
        let changes = entitlements.nextChange(
            from: verified.purchases, after: verified.date, gracePeriods: verified.gracePeriods)
        let listeners = state.withLock { state -> [AsyncStream<Profile>.Continuation] in
            state.profileChanges = changes
            guard state.profile != fresh else { return [] }
            state.profile = fresh
            return Array(state.profileContinuations.values)
        }
        for listener in listeners { listener.yield(fresh) }
        return fresh
    }

    /// Profiles as they change: after deliveries, restores and revocations, and when the store's clock passes a
    /// moment where an access level changes (one element per change, not one per clock move). Each call returns a new
    /// stream that starts with the current profile.
    public var profileUpdates: AsyncStream<Profile> {
        _ = profile  // computed again first if the clock passed a change
        let (stream, continuation) = AsyncStream<Profile>.makeStream(bufferingPolicy: .bufferingNewest(16))
        let id = UUID()
        let current = state.withLock { state in
            state.profileContinuations[id] = continuation
            return state.profile
        }
        continuation.yield(current)
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.profileContinuations.removeValue(forKey: id) }
        }
        return stream
    }

    private func refreshProfileQuietly() {
        // A receipt that does not verify leaves the last good profile; refreshProfile() reports why.
        _ = try? refreshProfile()
    }

    /// The store's clock moved: computes the profile again if it passed a moment where an access level changes.
    private func timePassed(to date: Date) {
        guard let changes = state.withLock({ $0.profileChanges }), date >= changes else { return }
        refreshProfileQuietly()
    }

    // MARK: Products

    /// The products loaded so far, by identifier.
    public var products: [String: SKProduct] { state.withLock { $0.products } }

    /// Loads products. Callers asking for the same identifiers while a request runs share it and its answer. Zero
    /// products found is a success; unknown identifiers are reported.
    public func loadProducts(_ identifiers: Set<String>, completion: @escaping ProductsCompletion) {
        let key = identifiers.sorted().joined(separator: "\n")
        let request = state.withLock { state -> SKProductsRequest? in
            if state.loads[key] != nil {
                state.loads[key]?.completions.append(completion)
                return nil
            }
            let request = SKProductsRequest(productIdentifiers: identifiers, queue: queue)
            state.loads[key] = ProductsLoad(
                identifiers: identifiers, request: request, attempts: 1, completions: [completion])
            return request
        }
        guard let request else { return }
        request.delegate = self
        request.start()
    }

    /// Loads products.
    public func products(_ identifiers: Set<String>) async throws(PurchasesError) -> ProductsResult {
        let result = await withCheckedContinuation { continuation in
            loadProducts(identifiers) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }

    /// Receives a products response.
    public func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse) {
        let completions = state.withLock { state -> [ProductsCompletion] in
            for product in response.products { state.products[product.productIdentifier] = product }
            guard let key = state.loads.first(where: { $0.value.request === request })?.key else { return [] }
            return state.loads.removeValue(forKey: key)?.completions ?? []
        }
        let result = ProductsResult(products: response.products, invalidIdentifiers: response.invalidProductIdentifiers)
        for completion in completions { completion(.success(result)) }
    }

    /// Receives a failed products request: retries as the policy says, then answers every caller.
    public func request(_ request: SKRequest, didFailWithError error: any Error) {
        let (retry, completions) = state.withLock { state -> (SKProductsRequest?, [ProductsCompletion]) in
            guard let key = state.loads.first(where: { $0.value.request === request })?.key,
                var load = state.loads[key]
            else { return (nil, []) }
            if load.attempts < retryPolicy.maxAttempts {
                load.attempts += 1
                load.request = SKProductsRequest(productIdentifiers: load.identifiers, queue: queue)
                state.loads[key] = load
                return (load.request, [])
            }
            state.loads[key] = nil
            return (nil, load.completions)
        }
        if let retry {
            retry.delegate = self
            retry.start()
            return
        }
        let failure = PurchasesError(store: error, code: .productsLoadingFailed)
        for completion in completions { completion(.failure(failure)) }
    }

    // MARK: Purchasing

    /// Buys a loaded product. The completion is called exactly once: purchased (after delivery), cancelled, pending, or
    /// failed (`purchaseInProgress`, `productNotFound`, a store error with its `SKError` code).
    public func purchase(productID: String, quantity: Int = 1, completion: @escaping PurchaseCompletion) {
        enum Start {
            case busy
            case missing
            case go(SKProduct)
        }
        let start = state.withLock { state -> Start in
            guard state.purchase == nil, !state.purchaseStarting else { return .busy }
            guard let product = state.products[productID] else { return .missing }
            state.purchaseStarting = true
            return .go(product)
        }
        switch start {
        case .busy:
            completion(.failure(PurchasesError(.purchaseInProgress, "another purchase is still running")))
        case .missing:
            completion(
                .failure(
                    PurchasesError(.productNotFound, "\(productID) is not among the loaded products; load it first")
                )
            )
        case .go(let product):
            let payment = SKMutablePayment(product: product)
            payment.quantity = quantity
            queue.add(payment) { added in
                self.state.withLock { state in
                    state.purchaseStarting = false
                    state.purchase = PendingPurchase(transactionID: added.storeIdentifier, completion: completion)
                }
            }
        }
    }

    /// Buys a loaded product.
    public func purchase(productID: String, quantity: Int = 1) async throws(PurchasesError) -> PurchaseOutcome {
        let result = await withCheckedContinuation { continuation in
            purchase(productID: productID, quantity: quantity) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }

    /// Restores purchases. Completes when the queue reports the restore finished (with the restored products) or
    /// failed, never on the first restored transaction.
    public func restore(completion: @escaping RestoreCompletion) {
        let started = state.withLock { state -> Bool in
            guard state.restore == nil else { return false }
            state.restore = completion
            state.restored = []
            return true
        }
        guard started else {
            return completion(.failure(PurchasesError(.restoreInProgress, "a restore is still running")))
        }
        queue.restoreCompletedTransactions()
    }

    /// Restores purchases and returns the restored products.
    public func restore() async throws(PurchasesError) -> Set<String> {
        let result = await withCheckedContinuation { continuation in
            restore { continuation.resume(returning: $0) }
        }
        return try result.get()
    }

    /// What happens without a pending call: deliveries of renewals, approvals, outside purchases and redelivered
    /// transactions; failures; revocations. Each call returns a new stream that sees what happens from then on.
    public var updates: AsyncStream<PurchaseUpdate> {
        let (stream, continuation) = AsyncStream<PurchaseUpdate>.makeStream(bufferingPolicy: .unbounded)
        let id = UUID()
        state.withLock { $0.continuations[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    private func publish(_ update: PurchaseUpdate) {
        for continuation in state.withLock({ Array($0.continuations.values) }) { continuation.yield(update) }
    }

    // MARK: The queue

    /// Handles updated transactions: delivers then finishes purchased and restored ones, finishes failed ones, and
    /// answers the pending purchase.
    public func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
        for transaction in transactions { handle(transaction) }
    }

    private func handle(_ transaction: SKPaymentTransaction) {
        let pending = state.withLock { state -> PurchaseCompletion? in
            state.purchase?.transactionID == transaction.storeIdentifier ? state.purchase?.completion : nil
        }
        let ownsPurchase = pending != nil
        func answer(_ result: Result<PurchaseOutcome, PurchasesError>) {
            let completion = state.withLock { state -> PurchaseCompletion? in
                guard state.purchase?.transactionID == transaction.storeIdentifier else { return nil }
                defer { state.purchase = nil }
                return state.purchase?.completion
            }
            completion?(result)
        }
        switch transaction.transactionState {
        case .purchasing:
            return
        case .deferred:
            answer(.success(.pending))
        case .failed:
            let code = (transaction.error as? SKError)?.code
            if mode == .full { queue.finishTransaction(transaction) }
            if ownsPurchase {
                answer(
                    code == .paymentCancelled
                        ? .success(.cancelled) : .failure(PurchasesError(store: transaction.error)))
            } else {
                publish(
                    .failed(productID: transaction.payment.productIdentifier, PurchasesError(store: transaction.error)))
            }
        case .purchased, .restored:
            let restored = transaction.transactionState == .restored
            let delivery = Delivery(
                productID: transaction.payment.productIdentifier,
                transactionID: transaction.transactionIdentifier ?? String(transaction.storeIdentifier),
                originalTransactionID: transaction.original?.transactionIdentifier,
                quantity: transaction.payment.quantity,
                date: transaction.transactionDate,
                source: ownsPurchase ? .purchase : restored ? .restore : .update
            )
            if restored { state.withLock { _ = $0.restored.insert(delivery.productID) } }
            guard mode == .full else {
                refreshProfileQuietly()
                if ownsPurchase { answer(.success(.purchased(delivery))) }
                return
            }
            do {
                if !journal.isDelivered(delivery.transactionID) {
                    try deliver(delivery)
                    try journal.markDelivered(delivery.transactionID)
                }
            } catch {
                // Not finished: the transaction stays in the queue and is delivered again on the next launch.
                let failure = PurchasesError(.deliveryFailed, "delivering \(delivery.productID) failed: \(error)")
                if ownsPurchase {
                    answer(.failure(failure))
                } else {
                    publish(.failed(productID: delivery.productID, failure))
                }
                return
            }
            queue.finishTransaction(transaction)
            refreshProfileQuietly()
            if ownsPurchase {
                answer(.success(.purchased(delivery)))
            } else if !restored {
                publish(.delivered(delivery))
            }
        }
    }

    /// Completes the running restore with the restored products.
    public func paymentQueueRestoreCompletedTransactionsFinished(_ queue: SKPaymentQueue) {
        let (completion, restored) = state.withLock { state in
            defer { state.restore = nil }
            return (state.restore, state.restored)
        }
        refreshProfileQuietly()
        completion?(.success(restored))
    }

    /// Fails the running restore.
    public func paymentQueue(_ queue: SKPaymentQueue, restoreCompletedTransactionsFailedWithError error: any Error) {
        let completion = state.withLock { state in
            defer { state.restore = nil }
            return state.restore
        }
        completion?(.failure(PurchasesError(store: error)))
    }

    /// Publishes revoked entitlements.
    public func paymentQueue(
        _ queue: SKPaymentQueue, didRevokeEntitlementsForProductIdentifiers productIdentifiers: [String]
    ) {
        refreshProfileQuietly()
        publish(.revoked(productIdentifiers))
    }
}
