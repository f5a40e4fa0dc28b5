import Foundation
import StoreModels
import StoreSimulator
import Synchronization

/// StoreKit 2 on one device of one store: what the static API and the values it hands out talk to.
///
/// It turns the device's events into `Transaction.updates` elements and purchase outcomes, and reads the store's
/// history for `all`, `currentEntitlements`, `latest(for:)` and subscription statuses. It never decides anything:
/// the store does. A client lives as long as something uses it (a binding, a listener, a value from the store);
/// the next one for the same device is a new launch of the app, whose first listener hears the unfinished
/// transactions again.
final class StoreKitClient: Sendable {
    let store: SimulatedStore
    let deviceID: String
    let account: String
    let controls: StoreKitControls
    let link: DeviceLink

    struct State {
        /// Purchases waiting for the store's decision, by device transaction identifier.
        var waiters: [UInt64: PurchaseWaiter] = [:]
        /// The `onStorefrontChange` closures of purchases still in progress, by device transaction identifier.
        var storefrontHandlers: [UInt64: StorefrontChangeHandler] = [:]
        /// Updates heard while no listener was alive, for the next one.
        var backlog: [VerificationResult<Transaction>] = []
        /// The listeners, held weakly: a listener ends with its iterator.
        var listeners: [WeakListener<VerificationResult<Transaction>>] = []
        /// The records already told as purchased (by `updates` or a purchase's result).
        var announced: Set<UInt64> = []
        /// The records already told as revoked, or revoked before this client started.
        var announcedRevocations: Set<UInt64> = []
        /// The listeners of `Storefront.updates`, held weakly.
        var storefrontListeners: [WeakListener<Storefront>] = []
        /// The listeners of `Product.SubscriptionInfo.Status.updates`, held weakly.
        var statusListeners: [WeakListener<Product.SubscriptionInfo.Status>] = []
        /// The store's change observer, added for the first status listener (it makes clock moves stop at each change,
        /// so it is added only when someone listens).
        var changeObserver: ChangeObserverToken?
        /// The listeners of `PurchaseIntent.intents`, held weakly.
        var intentListeners: [WeakListener<PurchaseIntent>] = []
        /// Purchase intents heard while no listener was alive, for the first one (an app launched from the App
        /// Store hears the intent that launched it once it listens).
        var intentBacklog: [PurchaseIntent] = []
    }

    let state = Mutex(State())

    private init(store: SimulatedStore, deviceID: String, account: String, controls: StoreKitControls) {
        self.store = store
        self.deviceID = deviceID
        self.account = account
        self.controls = controls
        self.link = DeviceLink(store: store, deviceID: deviceID, account: account)
    }

    /// The client of a device of a store: the live one, or a new one (a launch).
    static func client(for store: SimulatedStore, deviceID: String, account: String) -> StoreKitClient {
        var created: StoreKitClient?
        let client = StoreKitRegistry.shared.client(for: store, deviceID: deviceID) { controls in
            let client = StoreKitClient(store: store, deviceID: deviceID, account: account, controls: controls)
            created = client
            return client
        }
        created?.launch()
        return client
    }

    /// Connects to the device; its unfinished purchases wait for the first listener.
    private func launch() {
        link.client = self
        let revoked = store.transactions(of: account).filter { $0.cancellationDate != nil }.map(\.id)
        state.withLock { $0.announcedRevocations = Set(revoked) }
        let unfinished = link.connect()
        let recordIDs = unfinished.filter { $0.state == .purchased }.compactMap(\.recordID)
        let results = recordIDs.compactMap { transactionResult($0) }
        state.withLock { state in
            state.announced.formUnion(recordIDs)
            state.backlog.append(contentsOf: results)
        }
    }

    // MARK: Events (on the store's lane)

    func handle(_ event: DeviceEvent) {
        switch event {
        case .updated(let transactions), .purchasedOnOtherDevice(let transactions):
            for transaction in transactions { handleUpdate(transaction) }
        case .refunded(let recordIDs):
            handleRefunds(recordIDs)
        case .refundReversed(let recordIDs):
            handleReversals(recordIDs)
        case .storefrontChanged(let storefront):
            let listeners = state.withLock { state in
                state.storefrontListeners = state.storefrontListeners.filter { $0.listener != nil }
                return state.storefrontListeners.compactMap(\.listener)
            }
            for listener in listeners { listener.receive([Storefront(storefront)]) }
        case .purchaseIntent(let productID, let offerID):
            handlePurchaseIntent(productID: productID, offerID: offerID)
        case .removed, .dropped, .restoreFinished, .restoreFailed, .priceConsentNeeded, .entitlementsRevoked:
            break
        }
    }

    /// A transaction changed or arrived; `record` is the history record it reports when the store's decision of a
    /// purchase brought it (``DeviceListener/connection(_:didDecide:record:)``), so that it is signed without being
    /// looked up again.
    func handleUpdate(_ transaction: DeviceTransaction, record: TransactionRecord? = nil) {
        enum Step {
            case resolve(PurchaseWaiter)
            case announce(UInt64)
            case none
        }
        let step = state.withLock { state -> Step in
            if transaction.state != .purchasing, let waiter = state.waiters.removeValue(forKey: transaction.id) {
                state.storefrontHandlers[transaction.id] = nil
                if transaction.state == .purchased, let recordID = transaction.recordID {
                    state.announced.insert(recordID)
                }
                return .resolve(waiter)
            }
            // Restored transactions belong to StoreKit 1's restore; failed and deferred ones tell StoreKit 2 nothing.
            guard transaction.state == .purchased, let recordID = transaction.recordID,
                state.announced.insert(recordID).inserted
            else { return .none }
            return .announce(recordID)
        }
        switch step {
        case .resolve(let waiter):
            waiter.resolve(PurchaseWaiter.Decision(transaction: transaction, record: record))
        case .announce(let recordID):
            let result = record.map { transactionResult(of: $0) } ?? transactionResult(recordID)
            if let result { announce(result) }
        case .none: break
        }
    }

    /// Tells each refund once: the same transaction again, with its revocation date (consumables included).
    private func handleRefunds(_ recordIDs: [UInt64]) {
        let fresh = state.withLock { state in recordIDs.filter { state.announcedRevocations.insert($0).inserted } }
        for id in fresh {
            if let result = transactionResult(id) { announce(result) }
        }
    }

    /// Tells each reversed refund: the same transaction again, without its revocation date. A later refund of it is
    /// told again.
    private func handleReversals(_ recordIDs: [UInt64]) {
        state.withLock { state in
            for id in recordIDs { state.announcedRevocations.remove(id) }
        }
        for id in recordIDs {
            if let result = transactionResult(id) { announce(result) }
        }
    }

    /// Gives an update to every live listener, or keeps it for the next one.
    private func announce(_ result: VerificationResult<Transaction>) {
        let listeners = state.withLock { state -> [UpdatesListener] in
            let live = state.listeners.compactMap(\.listener)
            state.listeners = live.map(WeakListener.init)
            if live.isEmpty { state.backlog.append(result) }
            return live
        }
        for listener in listeners { listener.receive([result]) }
    }

    // MARK: Listeners

    /// Adds a listener of `Transaction.updates`; the first one alive gets what was heard before it.
    func addListener(handler: (@Sendable (VerificationResult<Transaction>) -> Void)? = nil) -> UpdatesListener {
        let listener = UpdatesListener(handler: handler)
        let backlog = state.withLock { state -> [VerificationResult<Transaction>] in
            state.listeners = state.listeners.filter { $0.listener != nil }
            state.listeners.append(WeakListener(listener))
            defer { state.backlog.removeAll() }
            return state.listeners.count == 1 ? state.backlog : []
        }
        listener.receive(backlog)
        return listener
    }

    /// Adds a listener of `PurchaseIntent.intents`: it hears the intents from now on, after those that waited for
    /// a listener.
    func addIntentListener() -> AsyncListener<PurchaseIntent> {
        let listener = AsyncListener<PurchaseIntent>()
        let backlog = state.withLock { state -> [PurchaseIntent] in
            state.intentListeners = state.intentListeners.filter { $0.listener != nil }
            state.intentListeners.append(WeakListener(listener))
            defer { state.intentBacklog.removeAll() }
            return state.intentBacklog
        }
        listener.receive(backlog)
        return listener
    }

    /// Tells the listeners of `PurchaseIntent.intents` of a purchase the customer started in the App Store, or keeps
    /// it for the first listener (on the store's lane).
    private func handlePurchaseIntent(productID: String, offerID: String?) {
        guard let definition = store.catalog.product(productID) else { return }
        let settings = store.settings
        let product = Product(definition, storefront: settings.storefront, locale: settings.locale, client: self)
        let offers = (product.subscription?.promotionalOffers ?? []) + (product.subscription?.winBackOffers ?? [])
        let offer = offerID.flatMap { id in offers.first { $0.id == id } }
        let intent = PurchaseIntent(product: product, offer: offer)
        let listeners = state.withLock { state -> [AsyncListener<PurchaseIntent>] in
            state.intentListeners = state.intentListeners.filter { $0.listener != nil }
            let live = state.intentListeners.compactMap(\.listener)
            if live.isEmpty { state.intentBacklog.append(intent) }
            return live
        }
        for listener in listeners { listener.receive([intent]) }
    }

    /// Adds a listener of `Storefront.updates`: it hears the changes from now on.
    func addStorefrontListener() -> AsyncListener<Storefront> {
        let listener = AsyncListener<Storefront>()
        state.withLock { $0.storefrontListeners.append(WeakListener(listener)) }
        return listener
    }

    /// Adds a listener of `Product.SubscriptionInfo.Status.updates`: it hears the account's changes from now on.
    func addStatusListener() -> AsyncListener<Product.SubscriptionInfo.Status> {
        let listener = AsyncListener<Product.SubscriptionInfo.Status>()
        let observe = state.withLock { state -> Bool in
            state.statusListeners.append(WeakListener(listener))
            return state.changeObserver == nil
        }
        if observe {
            let token = store.addChangeObserver { [weak self] change in self?.handle(change) }
            state.withLock { $0.changeObserver = token }
        }
        return listener
    }

    /// Tells the status listeners of a renewal, billing issue or expiry of one of the account's subscriptions (on the
    /// store's lane).
    private func handle(_ change: StoreChange) {
        guard change.account == account, let groupID = change.subscription?.groupID else { return }
        switch change.kind {
        case .renewed, .billingRecovered, .renewalFailed, .gracePeriodEnded, .billingRetryFailed, .expired: break
        default: return
        }
        let listeners = state.withLock { state in
            state.statusListeners = state.statusListeners.filter { $0.listener != nil }
            return state.statusListeners.compactMap(\.listener)
        }
        guard !listeners.isEmpty, let status = statusesNow(groupID: groupID).first else { return }
        for listener in listeners { listener.receive([status]) }
    }

    deinit {
        if let token = state.withLock({ $0.changeObserver }) { store.removeChangeObserver(token) }
    }

    // MARK: Products and purchases

    func products(_ identifiers: [String]) async throws -> [Product] {
        try controls.check(.loadProducts)
        await store.idle()
        let found: [ProductDefinition]
        do {
            found = try store.loadProducts(identifiers).products
        } catch {
            throw StoreKitError(error)
        }
        let settings = store.settings
        return found.map { Product($0, storefront: settings.storefront, locale: settings.locale, client: self) }
    }

    func purchase(_ product: Product, options: Set<Product.PurchaseOption>) async throws -> Product.PurchaseResult {
        try controls.check(.purchase)
        let handler = options.lazy.compactMap { option -> StorefrontChangeHandler? in
            if case .onStorefrontChange(let handler) = option.kind { return handler }
            return nil
        }.first
        let (id, waiter) = start(try Self.request(for: product, options: options), storefrontHandler: handler)
        await store.idle()
        let decision = await waiter.decision()
        let result = Result { try outcome(of: decision, id: id) }
        await store.idle()  // a failed transaction leaves the queue before the purchase throws
        return try result.get()
    }

    /// Adds a payment to the device's queue (the store reports and decides it on its lane); the waiter gets the
    /// decision.
    func start(_ request: PaymentRequest, storefrontHandler: StorefrontChangeHandler? = nil) -> (UInt64, PurchaseWaiter)
    {
        let waiter = PurchaseWaiter()
        let id = link.submit(request) { id in
            state.withLock {
                $0.waiters[id] = waiter
                if let storefrontHandler { $0.storefrontHandlers[id] = storefrontHandler }
            }
        }
        return (id, waiter)
    }

    /// Whether a purchase in progress goes on in a storefront that changed: its `onStorefrontChange` closure's
    /// answer, or yes without one (asked by the store on its lane).
    func shouldContinue(_ transaction: DeviceTransaction, in storefront: StoreModels.Storefront) -> Bool {
        guard let handler = state.withLock({ $0.storefrontHandlers[transaction.id] }) else { return true }
        return handler.shouldContinuePurchase(Storefront(storefront))
    }

    /// What a decided purchase comes to: the record the decision brought, signed by the store and verified once; a
    /// failed transaction leaves the queue (on the lane).
    func outcome(of decision: PurchaseWaiter.Decision, id: UInt64) throws -> Product.PurchaseResult {
        let decided = decision.transaction
        switch decided.state {
        case .purchased:
            let result =
                decision.record.map { transactionResult(of: $0) } ?? decided.recordID.flatMap { transactionResult($0) }
            guard let result else { throw StoreKitError.unknown }
            return .success(result)
        case .deferred:
            return .pending
        default:
            // StoreKit 2 has no failed transactions: the failed one leaves the device's queue at once.
            link.finish(id)
            let failure = decided.failure ?? StoreFailure(.unknown, "the purchase failed")
            if failure.code == .paymentCancelled { return .userCancelled }
            throw Self.purchaseError(failure)
        }
    }

    /// The store's payment request for a purchase with options.
    static func request(for product: Product, options: Set<Product.PurchaseOption>) throws -> PaymentRequest {
        var quantity = 1
        var token: UUID?
        var discount: DiscountRequest?
        var askToBuy = false
        var winBackOfferID: String?
        var signed: SignedPromotionalOffer?
        var eligibilityJWS: String?
        var billingPlan: BillingPlan.Kind?
        for option in options {
            switch option.kind {
            case .quantity(let value): quantity = value
            case .appAccountToken(let value): token = value
            case .promotionalOffer(let offerID, let keyID, let nonce, let signature, let timestamp):
                discount = DiscountRequest(
                    offerID: offerID, keyID: keyID, nonce: nonce.uuidString.lowercased(),
                    signature: signature.base64EncodedString(), timestamp: Int64(timestamp))
            case .winBackOffer(let offer): winBackOfferID = offer.id
            case .signedPromotionalOffer(let offerID, let compactJWS):
                signed = SignedPromotionalOffer(offerID: offerID, compactJWS: compactJWS)
            case .introductoryOfferEligibility(let compactJWS): eligibilityJWS = compactJWS
            case .billingPlanType(let type):
                // A plan type the store does not know is one no product offers.
                guard let kind = type.kind else { throw Product.PurchaseError.productUnavailable }
                billingPlan = kind
            case .simulatesAskToBuy(let value): askToBuy = value
            // StoreKit Test's options apply to `SKTestSession.buyProduct(identifier:options:)` only.
            case .custom, .onStorefrontChange, .testing: break
            }
        }
        guard PaymentRequest.quantityRange.contains(quantity) else { throw Product.PurchaseError.invalidQuantity }
        // A purchase applies one offer (the store refuses more with invalidOfferIdentifier too).
        guard [discount != nil, signed != nil, winBackOfferID != nil].filter({ $0 }).count <= 1 else {
            throw Product.PurchaseError.invalidOfferIdentifier
        }
        return PaymentRequest(
            productID: product.id, quantity: quantity, applicationUsername: token?.uuidString.lowercased(),
            simulatesAskToBuy: askToBuy, discount: discount, winBackOfferID: winBackOfferID,
            signedPromotionalOffer: signed, introductoryOfferEligibilityJWS: eligibilityJWS, billingPlan: billingPlan)
    }

    /// The StoreKit 2 error of a failed purchase.
    static func purchaseError(_ failure: StoreFailure) -> any Error {
        switch failure.code {
        case .paymentNotAllowed: Product.PurchaseError.purchaseNotAllowed
        case .paymentInvalid, .storeProductNotAvailable: Product.PurchaseError.productUnavailable
        case .invalidOfferIdentifier: Product.PurchaseError.invalidOfferIdentifier
        case .invalidSignature: Product.PurchaseError.invalidOfferSignature
        case .missingOfferParams: Product.PurchaseError.missingOfferParameters
        case .invalidOfferPrice: Product.PurchaseError.invalidOfferPrice
        case .ineligibleForOffer: Product.PurchaseError.ineligibleForOffer
        default: StoreKitError(failure)
        }
    }

    // MARK: Finishing

    func finish(_ transaction: Transaction) async {
        finish(transactionID: transaction.id)
        await store.idle()
    }

    /// Asks the store to finish the device's queue entries that report a transaction (StoreKit 1's restored copies
    /// stay).
    func finish(transactionID: UInt64) {
        let entries = link.unfinished.filter { ($0.recordID ?? $0.id) == transactionID && $0.state != .restored }
        for entry in entries { link.finish(entry.id) }
    }
}

/// A weak reference to a listener of one of StoreKit 2's endless sequences: a listener ends with its iterator.
struct WeakListener<Element: Sendable>: Sendable {
    weak var listener: AsyncListener<Element>?

    init(_ listener: AsyncListener<Element>) { self.listener = listener }
}
