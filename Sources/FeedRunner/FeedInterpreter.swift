import Foundation
import OpenStoreKit
import ReceiptKit
import StoreModels
import StoreSimulator

/// Carries out a feed's steps on a fresh manual store and checks its expectations, writing the event log.
final class FeedInterpreter {
    struct Tracked {
        /// A state the app heard, with its event log position.
        struct Heard {
            var state: TransactionState
            var at: Int
        }

        var product: String
        /// What the app heard, in order: one array, one allocation.
        var heard: [Heard] = []
        var removed = false
        var error: StoreErrorCode?
        /// `transactionIdentifier` and `original?.transactionIdentifier`, as the app last heard them, as numbers: the
        /// identifiers StoreKit gives are a transaction's number written out, so they are written only when read.
        var transactionNumber: UInt64?
        var originalNumber: UInt64?
        /// The exceptions StoreKit raised when the app finished the transaction too early.
        var exceptions: [String] = []
        /// Whether the queue's delegate was asked to go on with it in a new storefront.
        var askedToContinue = false

        /// The states the app heard, in order.
        var states: [TransactionState] { heard.map(\.state) }
        /// `transactionIdentifier` as the app last heard it.
        var transactionID: String? { transactionNumber.map { String($0) } }
        /// `original?.transactionIdentifier` as the app last heard it.
        var originalID: String? { originalNumber.map { String($0) } }
    }

    /// A product of a device (its seat in ``users``): the key of the latest transaction of the product the device
    /// heard of, hashed without joining the two into a new string.
    struct SeatProduct: Hashable {
        var seat: String
        var product: String
    }

    /// A transaction as one device heard it: devices of one account hear the same transactions (renewals, purchases
    /// made elsewhere) under the same identifier.
    struct TrackedKey: Hashable {
        var seat: String
        var id: UInt64
    }

    /// One device of a user, with its app: the queue, its observers and what the first observer heard.
    struct User {
        var queue: SKPaymentQueue
        var observers: [FeedObserver] = []
        var restore: (finished: Bool, failure: StoreErrorCode?)?
        var revoked = Set<String>()
        /// How many restores finished and failed since the app started.
        var restoresFinished = 0
        var restoresFailed = 0
        /// The first exception StoreKit raised since the app started (finishing a purchasing or deferred
        /// transaction).
        var firstException: (id: UInt64, message: String)?
        /// The queue's delegate (the queue holds it weakly).
        var delegate: FeedDelegate?
        /// How many times the delegate was asked whether to show a price-consent sheet since the app started.
        var priceConsentQuestions = 0
    }

    /// The name of a user's first device.
    static let mainDevice = "main"

    let file: String
    let baseDirectory: URL?
    let sink: any EventLogSink
    /// Whether event lines are built: not when ``sink`` discards them.
    let logs: Bool
    /// The state file the store lives in, or `nil` for an in-memory store.
    let statePath: String?
    /// How the store on ``statePath`` commits.
    let durability: StoreDurability
    private(set) var store: SimulatedStore
    let clock: ManualClock
    private let start: Date
    /// The devices of every user, by seat (``seat(_:_:)``).
    var users: [String: User] = [:]
    /// The seats in the order they were made.
    private var userOrder: [String] = []
    var currentUser = SimulatedStore.defaultAccount
    /// The device each user acts on, by user; a user not listed acts on ``mainDevice``.
    var currentDevices: [String: String] = [:]
    private(set) var handles: [String: UInt64] = [:]
    private(set) var handleNames: [UInt64: String] = [:]
    private(set) var tracked: [TrackedKey: Tracked] = [:]
    /// How many tracked transactions ``forgetSuperseded()`` lets be before it looks for ones to forget.
    private var forgetAbove = FeedInterpreter.forgetFloor
    /// The fewest tracked transactions ``forgetSuperseded()`` looks through.
    static let forgetFloor = 4_096
    /// How many tracked transactions ``forgetSuperseded()`` has looked at in all.
    private(set) var trackedVisited = 0
    /// The device each handle was named on.
    private var handleSeats: [UInt64: String] = [:]
    private var latestByProduct: [SeatProduct: UInt64] = [:]
    private var sequence = 0
    private var expectations = 0
    private var currentLine = 0
    private var renewals: [String: Int] = [:]
    /// The configurations the feed's `config` steps load, by source, loaded once when the feed is checked.
    private var configurations: [String: StoreConfiguration] = [:]
    /// The paywall shown by `paywall` steps, if any (FeedInterpreter+Paywall.swift).
    var paywall: FeedPaywall?
    /// What the app did and heard through StoreKit 2 (FeedInterpreter+StoreKit2.swift).
    let storeKit2 = FeedStoreKit2()
    /// Where the queues' programming error handlers leave StoreKit's exceptions until the run notes them.
    let exceptionInbox = FeedExceptionInbox()
    /// Storefront changes waiting for the next purchase of a product (`""` for any product), from `next` steps.
    private var storefrontChanges: [String: String] = [:]
    /// The server the store is served by, in a served run (FeedInterpreter+Notifications.swift).
    let server: (any FeedServer)?
    /// How many of the server's notifications `expect notification` steps matched, and how many are in the log.
    var notificationsMatched = 0
    var notificationsLogged = 0
    /// Called after each step with the number of steps run so far.
    var progress: ((Int) -> Void)?

    init(
        file: String, baseDirectory: URL?, sink: any EventLogSink, statePath: String? = nil,
        commitsEveryChange: Bool = false, server: (any FeedServer)? = nil
    ) throws(FeedError) {
        self.file = file
        self.baseDirectory = baseDirectory
        self.sink = sink
        self.logs = !(sink is DiscardingEventLog)
        self.statePath = statePath
        self.server = server
        var app = AppIdentity()
        if let bundleIdentifier = server?.bundleIdentifier { app.bundleIdentifier = bundleIdentifier }
        // Once per step by default: the run flushes after each step (run(_:includeReceipt:)), and the commit reaches
        // the operating system without waiting for the disk (it survives the process being killed).
        self.durability = commitsEveryChange ? StoreDurability() : .perStep
        let clock = ManualClock()
        self.clock = clock
        if let statePath {
            self.store = try Self.openStore(statePath, durability: durability, clock: clock, app: app, file: file)
        } else {
            self.store = SimulatedStore(configuration: .demo, clock: clock, lane: .manual, app: app)
        }
        self.start = clock.now
    }

    /// Opens the durable store of a state file.
    private static func openStore(
        _ path: String, durability: StoreDurability, clock: ManualClock, app: AppIdentity, file: String
    ) throws(FeedError) -> SimulatedStore {
        do throws(StoreSimulatorError) {
            return try SimulatedStore(
                statePath: path, durability: durability, configuration: .demo, clock: clock, lane: .manual, app: app)
        } catch {
            throw FeedError(
                .unusableState, file: file, line: 0, column: 0, error.detail,
                hint: "pass --state a new path, or the state file of an earlier run")
        }
    }

    // MARK: Running

    func run(_ source: FeedSource, includeReceipt: Bool = false, includeSignedData: Bool = false) throws(FeedError)
        -> FeedResult
    {
        let parser = FeedParser(file: file, baseDirectory: baseDirectory)
        let checked = try FeedChecker(parser: parser).check(source, startingWith: store.configuration)
        configurations = checked.configurations
        try startServing(checked.firstNotificationExpectation)
        var steps = 0
        var failure: FeedResult.Failure?
        ensureUser(currentUser, device: Self.mainDevice)
        try parser.forEachStep(in: source) { (line: FeedLine) throws(FeedError) in
            guard failure == nil else { return }
            steps += 1
            currentLine = line.line
            var event = EventLine(logging: logs, seq: nextSequence(), time: clock.now, event: "step")
            event.add("line", line.line)
            event.add("step", line.text)
            sink.append(event.line)
            if let message = try perform(line.step, line: line) {
                failure = FeedResult.Failure(line: line.line, step: line.text, message: message)
                var failed = EventLine(logging: logs, seq: nextSequence(), time: clock.now, event: "failed")
                failed.add("line", line.line)
                failed.add("message", message)
                sink.append(failed.line)
            }
            if statePath != nil {
                // One commit per step, whatever the step changed.
                do throws(StoreSimulatorError) {
                    try store.flush()
                } catch {
                    throw FeedError(
                        .unusableState, file: file, line: line.line, column: 0, error.detail,
                        hint: "check the disk holding the state file")
                }
            }
            progress?(steps)
        }
        if server != nil, failure == nil, let message = notificationsSettled() {
            failure = FeedResult.Failure(line: currentLine, step: "end of the feed", message: message)
        }
        server?.finish()
        if statePath != nil {
            do throws(StoreSimulatorError) {
                try store.close()
            } catch {
                throw FeedError(
                    .unusableState, file: file, line: currentLine, column: 0, error.detail,
                    hint: "check the disk holding the state file")
            }
        }
        var result = FeedResult(
            feed: file,
            steps: steps,
            expectations: expectations,
            failure: failure,
            simulatedSeconds: clock.now.timeIntervalSince(start),
            receipt: includeReceipt
                ? users[currentSeat].flatMap { try? store.appReceipt(deviceID: $0.queue.deviceID) } : nil
        )
        if includeSignedData { result.signedData = signedData() }
        var end = EventLine(
            logging: logs, seq: nextSequence(), time: clock.now, event: result.passed ? "passed" : "failed-feed")
        end.add("steps", steps)
        end.add("expectations", expectations)
        sink.append(end.line)
        return result
    }

    func nextSequence() -> Int {
        sequence += 1
        return sequence
    }

    /// Carries out one step; returns a failure message, or nil.
    private func perform(_ step: FeedStep, line: FeedLine) throws(FeedError) -> String? {
        defer {
            store.runUntilIdle()
            runPaywallWork()
        }
        switch step {
        case .configure(let source):
            try configure(source, line: line)
        case .set(.accountAskToBuy(let on)):
            store.updateAccountSettings(currentUser) { $0.askToBuyEnabled = on }
        case .set(.accountPayments(let on)):
            store.updateAccountSettings(currentUser) { $0.paymentsAllowed = on }
        case .set(let setting):
            apply(setting)
        case .user(let name):
            ensureUser(name, device: currentDevices[name] ?? Self.mainDevice)
            currentUser = name
        case .device(let name):
            ensureUser(currentUser, device: name)
            currentDevices[currentUser] = name
        case .addObserver(let name, let policy, let storePayments):
            let observer = FeedObserver(
                name: name, user: currentUser, device: currentDevice, policy: policy, storePayments: storePayments,
                run: self)
            users[currentSeat]?.observers.append(observer)
            users[currentSeat]?.queue.add(observer)
        case .removeObserver(let name):
            guard let observer = users[currentSeat]?.observers.first(where: { $0.name == name }) else {
                return "\(currentSeatDescription) has no observer named \(name)"
            }
            users[currentSeat]?.queue.remove(observer)
            users[currentSeat]?.observers.removeAll { $0 === observer }
        case .delegate(let answer):
            let priceConsent = users[currentSeat]?.delegate?.priceConsentAnswer ?? true
            let delegate = answer.map {
                FeedDelegate(
                    user: currentUser, device: currentDevice, answer: $0, priceConsentAnswer: priceConsent, run: self)
            }
            users[currentSeat]?.delegate = delegate
            users[currentSeat]?.queue.delegate = delegate
        case .delegatePriceConsent(let show):
            let delegate = FeedDelegate(
                user: currentUser, device: currentDevice, answer: users[currentSeat]?.delegate?.answer ?? true,
                priceConsentAnswer: show, run: self)
            users[currentSeat]?.delegate = delegate
            users[currentSeat]?.queue.delegate = delegate
        case .showPriceConsent:
            users[currentSeat]?.queue.showPriceConsentIfNeeded()
        case .buy(let product, let quantity, let username, let offer, let askToBuy, let handle):
            guard let queue = users[currentSeat]?.queue else { return nil }
            let payment = SKMutablePayment()
            payment.productIdentifier = product
            payment.quantity = quantity
            payment.applicationUsername = username
            payment.simulatesAskToBuyInSandbox = askToBuy
            if let offer {
                payment.paymentDiscount = SKPaymentDiscount(
                    identifier: offer,
                    keyIdentifier: "FEEDKEY",
                    nonce: UUID(uuid: uuidBytes(UInt64(sequence))),
                    signature: "c2lnbmVkIGJ5IHRoZSBmZWVk",
                    timestamp: NSNumber(value: Int64(clock.now.timeIntervalSince1970 * 1000))
                )
            }
            queue.add(payment)
            if let code = storefrontChanges.removeValue(forKey: product) ?? storefrontChanges.removeValue(forKey: "") {
                store.updateSettings { $0.storefront = Storefront(countryCode: code) }
            }
            if let added = queue.transactions.last {
                track(added.storeIdentifier, product: product)
                if let handle {
                    handles[handle] = added.storeIdentifier
                    handleNames[added.storeIdentifier] = handle
                    handleSeats[added.storeIdentifier] = currentSeat
                }
            }
        case .script(let product, .changeStorefront(let code)):
            storefrontChanges[product ?? ""] = code
        case .script(let product, let outcome):
            let scripted: ScriptedOutcome =
                switch outcome {
                case .succeed: .succeed
                case .fail(let code): .fail(StoreFailure(code, "scripted by \(file):\(line.line)"))
                case .askToBuy: .askToBuy
                case .interrupt: .interrupt
                case .changeStorefront: .succeed
                }
            return perform(.script(scripted, productID: product))
        case .approve(let reference):
            return perform(reference) { .approveAskToBuy($0) }
        case .decline(let reference):
            return perform(reference) { .declineAskToBuy($0) }
        case .finish(let reference):
            guard let id = resolve(reference), let queue = users[currentSeat]?.queue,
                let transaction = queue.transactions.first(where: { $0.storeIdentifier == id })
            else { return "\(reference) is not in the queue of \(currentSeatDescription)" }
            queue.finishTransaction(transaction)
            noteExceptions(for: transaction, on: currentSeat, by: nil)
        case .restore(let username):
            users[currentSeat]?.restore = nil
            users[currentSeat]?.queue.restoreCompletedTransactions(withApplicationUsername: username)
        case .advance(let duration):
            let target = duration.after(clock.now)
            guard target <= ISO8601.latest else {
                return "the clock would pass \(ISO8601.format(ISO8601.latest)), the latest date a feed's clock reaches"
            }
            // Each renewal is logged as the store handles it, before the callbacks it causes, which run during the move.
            return perform(.advance(to: target)) { log($0) }
        case .refund(let reference):
            return perform(reference) { .refund($0) }
        case .family(let name, let users):
            return perform(.joinFamily(name, accounts: users))
        case .leaveFamily(let user):
            return perform(.leaveFamily(account: user))
        case .reverseRefund(let reference):
            return perform(reference) { .reverseRefund($0) }
        case .refundRequest(let reference, let reason):
            return perform(reference) { .requestRefund($0, reason: reason) }
        case .refundDecline(let reference):
            return perform(reference) { .declineRefund($0) }
        case .delete(let reference):
            return perform(reference) { .deleteTransaction($0) }
        case .clearTransactions:
            return perform(.clearTransactions)
        case .resolve(let reference):
            return perform(reference) { .resolveIssue($0) }
        case .promote(let product, let handle):
            return promote(product, handle: handle)
        case .buyElsewhere(let product, let quantity, let handle):
            do {
                let outcome = try store.perform(
                    .buyProduct(productID: product, quantity: quantity, account: currentUser))
                guard let record = outcome.transaction else { return nil }
                track(record.id, product: product)
                if let handle {
                    handles[handle] = record.id
                    handleNames[record.id] = handle
                    handleSeats[record.id] = currentSeat
                }
            } catch { return error.detail }
        case .expire(let product):
            return perform(.expireSubscription(productID: product, account: currentUser), logging: true)
        case .renew(let product):
            return perform(.forceRenewal(productID: product, account: currentUser), logging: true)
        case .autoRenew(let reference, let on):
            return perform(reference) { .setAutoRenew(on, transactionID: $0) }
        case .priceIncrease(let reference, let action):
            return perform(reference) {
                switch action {
                case "request": .requestPriceIncreaseConsent($0)
                case "consent": .consentToPriceIncrease($0)
                default: .declinePriceIncrease($0)
                }
            }
        case .restart:
            return restart()
        case .expect(let expectation):
            store.runUntilIdle()
            expectations += 1
            return check(expectation)
        case .paywall(let step):
            return performPaywall(step)
        case .storeKit2(let step):
            return performStoreKit2(step)
        }
        return nil
    }

    /// Applies a store operation; an error becomes the step's failure. With `logging`, the subscription events it
    /// returns are logged after it; `report` hears those of each instant of a move of the clock as they are handled.
    private func perform(
        _ operation: StoreOperation, logging: Bool = false, report: ([SubscriptionEvent]) -> Void = { _ in }
    ) -> String? {
        do {
            let outcome = try store.perform(operation, reporting: report)
            if logging { log(outcome.subscriptionEvents) }
        } catch { return error.detail }
        return nil
    }

    /// Applies the store operation `make` builds for the transaction a step names (a handle or an identifier).
    private func perform(_ reference: FeedStep.Reference, _ make: (UInt64) -> StoreOperation) -> String? {
        guard let id = resolve(reference) else { return "no transaction \(reference) was seen" }
        return perform(make(id))
    }

    /// A promoted in-app purchase bought in the App Store: every observer of the current device is asked whether to
    /// add the payment, and it is added when one says yes.
    private func promote(_ product: String, handle: String?) -> String? {
        guard let queue = users[currentSeat]?.queue else { return nil }
        let loaded: SKProduct
        switch FeedProductLoader.load(product, from: store) {
        case .success(let found): loaded = found
        case .failure(let failure): return failure.message
        }
        let payment = SKMutablePayment(product: loaded)
        var accepted = false
        for observer in queue.transactionObservers {
            let answer = observer.paymentQueue(queue, shouldAddStorePayment: payment, for: loaded)
            var event = EventLine(logging: logs, seq: nextSequence(), time: clock.now, event: "shouldAddStorePayment")
            event.add("user", currentUser)
            if currentDevice != Self.mainDevice { event.add("device", currentDevice) }
            event.add("observer", (observer as? FeedObserver)?.name)
            event.add("product", product)
            event.add("answer", answer)
            sink.append(event.line)
            accepted = accepted || answer
        }
        guard accepted else { return nil }
        queue.add(payment)
        if let added = queue.transactions.last {
            track(added.storeIdentifier, product: product)
            if let handle {
                handles[handle] = added.storeIdentifier
                handleNames[added.storeIdentifier] = handle
                handleSeats[added.storeIdentifier] = currentSeat
            }
        }
        return nil
    }

    /// Writes the store's subscription events (renewals, billing issues, expiries) to the log, at their own times.
    private func log(_ events: [SubscriptionEvent]) {
        for item in events {
            var event = EventLine(logging: logs, seq: nextSequence(), time: item.date, event: "subscription")
            event.add("kind", item.kindName)
            event.add("user", item.account)
            event.add("product", item.productID)
            event.add("original", String(item.originalID))
            event.add("id", item.transactionID.map { String($0) })
            sink.append(event.line)
            if case .renewed = item.kind { renewals[item.account + "\n" + item.productID, default: 0] += 1 }
        }
    }

    private func configure(_ source: String, line: FeedLine) throws(FeedError) {
        if let configuration = configurations[source] { return store.reconfigure(configuration) }
        let words = FeedLexer.tokenize(Substring(line.text))
        store.reconfigure(
            try FeedChecker(parser: FeedParser(file: file, baseDirectory: baseDirectory)).loadConfiguration(
                source, line: line.line, column: words.count > 1 ? words[1].column : 1))
    }

    private func apply(_ setting: FeedStep.Setting) {
        store.updateSettings { settings in
            switch setting {
            case .askToBuy(let on): settings.askToBuyEnabled = on
            case .failTransactions(let on, let code):
                settings.failTransactionsEnabled = on
                settings.failureError = code
            case .interruptedPurchases(let on): settings.interruptedPurchasesEnabled = on
            case .paymentsAllowed(let on): settings.paymentsAllowed = on
            case .priceConsent(let answer): settings.priceConsentAnswer = answer
            case .storefront(let code): settings.storefront = Storefront(countryCode: code)
            case .locale(let locale): settings.locale = locale
            case .billingRetry(let on): settings.billingRetryOnRenewal = on
            case .gracePeriod(let on): settings.billingGracePeriodEnabled = on
            case .simulatedError(let api, let code):
                let operation: StoreAPI =
                    switch api {
                    case "load-products": .loadProducts
                    case "purchase": .purchase
                    case "restore": .restore
                    default: .receiptRefresh
                    }
                settings.simulatedErrors[operation] = code.map { StoreFailure($0, "simulated by the feed") }
            case .history, .accountAskToBuy, .accountPayments:
                break
            }
        }
        if case .history(let keepAll) = setting { store.historyRetention = keepAll ? .all : .receiptOnly }
    }

    /// Makes a device of a user, with its queue and `app` observer, unless it exists.
    ///
    /// The first device of `default` is ``SKPaymentQueue/defaultDeviceID``, the first device of any other user `NAME`
    /// is `device-NAME`, and every other device `D` of a user `U` is `device-U D` (names hold no spaces, so no two
    /// devices share an identifier).
    private func ensureUser(_ name: String, device: String) {
        let seat = Self.seat(name, device)
        // Looked up without copying the user out (its queue, observers and delegate retained and released).
        guard users.index(forKey: seat) == nil else { return }
        let deviceID =
            device != Self.mainDevice
            ? "device-\(name) \(device)"
            : name == SimulatedStore.defaultAccount ? SKPaymentQueue.defaultDeviceID : "device-\(name)"
        let queue = SKPaymentQueue(store: store, deviceID: deviceID, account: name)
        users[seat] = User(queue: queue)
        userOrder.append(seat)
        let observer = FeedObserver(
            name: "app", user: name, device: device, policy: .auto, storePayments: true, run: self)
        users[seat]?.observers.append(observer)
        install(observer, on: queue)
    }

    /// The key of a device of a user in ``users``: the user's name for the first device.
    static func seat(_ user: String, _ device: String) -> String {
        device == mainDevice ? user : user + "\n" + device
    }

    /// The device the current user acts on.
    var currentDevice: String { currentDevices[currentUser] ?? Self.mainDevice }

    /// The key of the current user's current device in ``users``.
    var currentSeat: String { Self.seat(currentUser, currentDevice) }

    /// The current user's device, for messages: `user alice` or `device ipad of alice`.
    var currentSeatDescription: String {
        currentDevice == Self.mainDevice ? "user \(currentUser)" : "device \(currentDevice) of \(currentUser)"
    }

    /// Adds an observer to a queue, and has the queue report StoreKit's exceptions to the run instead of trapping.
    private func install(_ observer: FeedObserver, on queue: SKPaymentQueue) {
        let exceptions = exceptionInbox
        queue.programmingErrorHandler = { message in exceptions.post(message) }
        queue.add(observer)
    }

    /// The app stops and starts again. On a state file the store is closed and reopened from it, as a new process
    /// would; in memory the same store goes on. Returns a failure message if the state file cannot be reopened.
    private func restart() -> String? {
        // A served store stays open: the app restarts, the App Store's servers do not.
        if let statePath, server == nil {
            do throws(StoreSimulatorError) {
                try store.close()
                store = try SimulatedStore(
                    statePath: statePath, durability: durability, configuration: .demo, clock: clock, lane: .manual)
            } catch {
                return "the store could not be reopened from its state file: \(error.detail)"
            }
        }
        var names: [String] = []
        for seat in userOrder {
            guard let user = users[seat] else { continue }
            let account = user.queue.account
            if !names.contains(account) { names.append(account) }
            let queue = SKPaymentQueue(store: store, deviceID: user.queue.deviceID, account: account)
            let observers = user.observers.map {
                FeedObserver(
                    name: $0.name, user: account, device: $0.device, policy: $0.policy,
                    storePayments: $0.storePayments, run: self)
            }
            let delegate = user.delegate.map {
                FeedDelegate(
                    user: account, device: $0.device, answer: $0.answer, priceConsentAnswer: $0.priceConsentAnswer,
                    run: self)
            }
            users[seat] = User(queue: queue, observers: observers, delegate: delegate)
            queue.delegate = delegate
            for observer in observers { install(observer, on: queue) }
        }
        var event = EventLine(logging: logs, seq: nextSequence(), time: clock.now, event: "restarted")
        event.add("users", strings: names)
        sink.append(event.line)
        restartStoreKit2()
        return nil
    }

    // MARK: Observations

    private func track(_ id: UInt64, product: String) {
        let key = TrackedKey(seat: currentSeat, id: id)
        if tracked[key] == nil { tracked[key] = Tracked(product: product) }
        latestByProduct[SeatProduct(seat: key.seat, product: product)] = id
    }

    private func isFirstObserver(_ observer: FeedObserver, of queue: SKPaymentQueue) -> Bool {
        queue.transactionObservers.first === observer
    }

    func observed(updated transactions: [SKPaymentTransaction], by observer: FeedObserver, queue: SKPaymentQueue) {
        let first = isFirstObserver(observer, of: queue)
        for transaction in transactions {
            let state = TransactionState(rawValue: transaction.transactionState.rawValue) ?? .failed
            let code = (transaction.error as? SKError).flatMap { StoreErrorCode(rawValue: $0.code.rawValue) }
            let seq = nextSequence()
            if first {
                let id = transaction.storeIdentifier
                let product = transaction.payment.productIdentifier
                let seat = observer.seat
                latestByProduct[SeatProduct(seat: seat, product: product)] = id
                // `transactionIdentifier` is the number written out once the transaction is purchased or restored.
                let identified = Self.isIdentified(transaction.transactionState)
                let originalNumber = transaction.original.flatMap {
                    Self.isIdentified($0.transactionState) ? $0.storeIdentifier : nil
                }
                // One lookup of the tracked transaction for all its changes.
                updateTracked(seat: seat, id: id, product: product) { tracked in
                    tracked.heard.append(Tracked.Heard(state: state, at: seq))
                    tracked.error = code
                    if identified { tracked.transactionNumber = id }
                    tracked.originalNumber = originalNumber
                }
            }
            guard logs else { continue }
            var event = EventLine(logging: logs, seq: seq, time: clock.now, event: "updated")
            event.add("user", observer.user)
            if observer.device != Self.mainDevice { event.add("device", observer.device) }
            event.add("observer", observer.name)
            event.add("handle", handleNames[transaction.storeIdentifier])
            event.add("product", transaction.payment.productIdentifier)
            event.add("quantity", transaction.payment.quantity)
            event.add("state", state.name)
            event.add("id", transaction.transactionIdentifier)
            if let original = transaction.original?.transactionIdentifier { event.add("original", original) }
            if let code { event.add("error", code.name) }
            sink.append(event.line)
        }
    }

    /// Whether a transaction in a state has a `transactionIdentifier`: purchased or restored.
    private static func isIdentified(_ state: SKPaymentTransactionState) -> Bool {
        state == .purchased || state == .restored
    }

    func delivered(_ transaction: SKPaymentTransaction, by observer: FeedObserver) {
        // The sequence moves on whether or not the line is written: offer nonces are made from it.
        let seq = nextSequence()
        guard logs else { return }
        var event = EventLine(logging: logs, seq: seq, time: clock.now, event: "delivered")
        event.add("user", observer.user)
        if observer.device != Self.mainDevice { event.add("device", observer.device) }
        event.add("observer", observer.name)
        event.add("handle", handleNames[transaction.storeIdentifier])
        event.add("product", transaction.payment.productIdentifier)
        event.add("id", transaction.transactionIdentifier)
        sink.append(event.line)
    }

    func observed(removed transactions: [SKPaymentTransaction], by observer: FeedObserver, queue: SKPaymentQueue) {
        let first = isFirstObserver(observer, of: queue)
        for transaction in transactions {
            let id = transaction.storeIdentifier
            if first {
                let key = TrackedKey(seat: observer.seat, id: id)
                tracked[key]?.removed = true
                if handleNames[id] == nil,
                    latestByProduct[SeatProduct(seat: key.seat, product: transaction.payment.productIdentifier)] != id
                {
                    tracked[key] = nil
                }
            }
            let seq = nextSequence()
            guard logs else { continue }
            var event = EventLine(logging: logs, seq: seq, time: clock.now, event: "removed")
            event.add("user", observer.user)
            if observer.device != Self.mainDevice { event.add("device", observer.device) }
            event.add("observer", observer.name)
            event.add("handle", handleNames[id])
            event.add("product", transaction.payment.productIdentifier)
            event.add("id", transaction.transactionIdentifier)
            sink.append(event.line)
        }
        forgetSuperseded()
    }

    /// Keeps memory flat: a removed transaction without a handle is forgotten once a newer one of its product exists.
    ///
    /// The pass over every tracked transaction runs only when their number has doubled since the last pass (and is
    /// above 4,096), so its cost per step stays constant however many users and transactions the feed has.
    private func forgetSuperseded() {
        guard tracked.count > forgetAbove else { return }
        trackedVisited += tracked.count
        let keep = Set(handles.values).union(latestByProduct.values)
        // Removed in place: a filtered copy would hold the table twice at the peak of memory.
        let forgotten = tracked.compactMap { keep.contains($0.key.id) || !$0.value.removed ? nil : $0.key }
        for key in forgotten { tracked[key] = nil }
        forgetAbove = max(Self.forgetFloor, 2 * tracked.count)
    }

    func observedRestore(failure: SKError.Code?, finished: Bool, by observer: FeedObserver, queue: SKPaymentQueue) {
        if isFirstObserver(observer, of: queue) {
            users[observer.seat]?.restore = (finished, failure.flatMap { StoreErrorCode(rawValue: $0.rawValue) })
            if finished {
                users[observer.seat]?.restoresFinished += 1
            } else {
                users[observer.seat]?.restoresFailed += 1
            }
        }
        var event = EventLine(
            logging: logs,
            seq: nextSequence(), time: clock.now, event: finished ? "restoreFinished" : "restoreFailed")
        event.add("user", observer.user)
        if observer.device != Self.mainDevice { event.add("device", observer.device) }
        event.add("observer", observer.name)
        if let failure { event.add("error", StoreErrorCode(rawValue: failure.rawValue)?.name ?? "unknown") }
        sink.append(event.line)
    }

    func observedStorefront(_ countryCode: String, by observer: FeedObserver) {
        var event = EventLine(logging: logs, seq: nextSequence(), time: clock.now, event: "storefrontChanged")
        event.add("user", observer.user)
        if observer.device != Self.mainDevice { event.add("device", observer.device) }
        event.add("observer", observer.name)
        event.add("storefront", countryCode)
        sink.append(event.line)
    }

    func observedRevocation(_ products: [String], by observer: FeedObserver, queue: SKPaymentQueue) {
        if isFirstObserver(observer, of: queue) { users[observer.seat]?.revoked.formUnion(products) }
        var event = EventLine(logging: logs, seq: nextSequence(), time: clock.now, event: "revoked")
        event.add("user", observer.user)
        if observer.device != Self.mainDevice { event.add("device", observer.device) }
        event.add("observer", observer.name)
        event.add("products", strings: products)
        sink.append(event.line)
    }

    // MARK: Expectations

    /// A transaction as the current device heard it. A handle of another user's transaction is what that user's
    /// device heard.
    func heard(_ reference: FeedStep.Reference) -> Tracked? {
        guard let id = resolve(reference) else { return nil }
        if let mine = tracked[TrackedKey(seat: currentSeat, id: id)] { return mine }
        guard case .handle = reference, let seat = handleSeats[id], users[seat]?.queue.account != currentUser else {
            return nil
        }
        return tracked[TrackedKey(seat: seat, id: id)]
    }

    /// Changes what a device heard of a transaction, starting a record of it if there is none.
    func updateTracked(seat: String, id: UInt64, product: String, _ body: (inout Tracked) -> Void) {
        body(&tracked[TrackedKey(seat: seat, id: id), default: Tracked(product: product)])
    }

    func resolve(_ reference: FeedStep.Reference) -> UInt64? {
        switch reference {
        case .handle(let name): handles[name] ?? storeKit2.purchases[name]?.transactionID
        case .product(let id):
            latestByProduct[SeatProduct(seat: currentSeat, product: id)]
                ?? storeKit2.latest[currentSeat + "\n" + id]?.id
        }
    }

    private func check(_ expectation: FeedStep.Expectation) -> String? {
        func transaction(_ reference: FeedStep.Reference) -> Tracked? { heard(reference) }
        func names(_ states: [TransactionState]) -> String { states.map(\.name).joined(separator: " ") }
        let account = currentUser
        switch expectation {
        case .states(let reference, let expected):
            let seen = transaction(reference)?.states ?? []
            return seen == expected
                ? nil : "expected states \(names(expected)), observed \(seen.isEmpty ? "none" : names(seen))"
        case .state(let reference, let expected):
            let seen = transaction(reference)?.states.last
            return seen == expected ? nil : "expected state \(expected.name), observed \(seen?.name ?? "none")"
        case .removed(let reference):
            return transaction(reference)?.removed == true
                ? nil : "expected \(reference) removed from the queue; it was not"
        case .error(let reference, let code):
            let seen = transaction(reference)?.error
            return seen == code ? nil : "expected error \(code.name), observed \(seen?.name ?? "none")"
        case .restoreFinished:
            guard let restore = users[currentSeat]?.restore else {
                return "expected the restore to finish; it has not ended"
            }
            return restore.finished
                ? nil : "expected the restore to finish; it failed with \(restore.failure?.name ?? "unknown")"
        case .restoreFailed(let code):
            guard let restore = users[currentSeat]?.restore else {
                return "expected the restore to fail; it has not ended"
            }
            guard !restore.finished else { return "expected the restore to fail; it finished" }
            return code == nil || code == restore.failure
                ? nil : "expected restore error \(code?.name ?? ""), observed \(restore.failure?.name ?? "unknown")"
        case .unfinished(let count):
            let seen = users[currentSeat]?.queue.transactions.count ?? 0
            return seen == count ? nil : "expected \(count) unfinished transactions, found \(seen)"
        case .owned(let product, let expected):
            let owned = store.access(to: product, account: account).hasAccess
            return owned == expected
                ? nil
                : "expected \(product) \(expected ? "owned" : "not owned"), it is \(owned ? "owned" : "not owned")"
        case .subscribed(let product, let expected, let until):
            // Subscribed: access that ends by time (a subscription period or a grace period), not lifetime access.
            let access = store.access(to: product, account: account)
            let active = access.hasAccess && access.expiresAt != nil
            guard active == expected else {
                return
                    "expected \(product) \(expected ? "active" : "inactive"), it is \(active ? "active until \(ISO8601.format(access.expiresAt ?? clock.now))" : "inactive")"
            }
            if let until, access.expiresAt != until {
                return
                    "expected \(product) active until \(ISO8601.format(until)), it is active until \(access.expiresAt.map(ISO8601.format) ?? "-")"
            }
            return nil
        case .access(let product, let expected):
            let access = store.access(to: product, account: account)
            return access.hasAccess == expected
                ? nil
                : "expected access to \(product) \(expected ? "on" : "off"), it is \(access.hasAccess ? "on" : "off") (\(access.phase.rawValue))"
        case .revoked(let product):
            return users[currentSeat]?.revoked.contains(product) == true
                ? nil : "expected \(product) revoked; the app heard no revocation"
        case .history(let count):
            let seen = store.allTransactions().count
            return seen == count ? nil : "expected \(count) transactions in the store's history, found \(seen)"
        case .renewals(let product, let count):
            let seen = renewals[account + "\n" + product] ?? 0
            return seen == count ? nil : "expected \(product) renewed \(count) times, renewed \(seen)"
        case .phase(let product, let expected):
            let seen = store.access(to: product, account: account).phase
            return seen == expected ? nil : "expected \(product) \(expected.rawValue), it is \(seen.rawValue)"
        case .receiptVerifies:
            switch verifiedReceipt() {
            case .success: return nil
            case .failure(let error): return "expected the receipt to verify: \(error.message)"
            }
        case .receiptEntries(let product, let count):
            switch verifiedReceipt() {
            case .success(let receipt):
                let seen = receipt.inAppPurchases.filter { $0.productIdentifier == product }.count
                return seen == count ? nil : "expected \(count) receipt entries for \(product), found \(seen)"
            case .failure(let error): return "the receipt does not verify: \(error.message)"
            }
        case .receiptCancelled(let product):
            switch verifiedReceipt() {
            case .success(let receipt):
                let latest = receipt.inAppPurchases.filter { $0.productIdentifier == product }.max {
                    $0.purchaseDate < $1.purchaseDate
                }
                guard let latest else { return "the receipt lists no \(product)" }
                return latest.cancellationDate == nil ? "expected \(product) cancelled in the receipt; it is not" : nil
            case .failure(let error): return "the receipt does not verify: \(error.message)"
            }
        case .charged(let product, let count):
            let seen = store.transactions(of: account).filter { $0.productID == product && $0.state == .purchased }
                .count
            return seen == count ? nil : "expected \(product) charged \(count) times, charged \(seen)"
        case .notification(let expectation):
            return checkNotification(expectation)
        case .paywall(let expectation):
            return checkPaywall(expectation)
        case .storeKit2(let expectation):
            return checkStoreKit2(expectation)
        case .receiptField, .receiptEntryField, .noRevocation, .restoreCount, .heardUpdates, .order, .original,
            .exception, .noException,
            .paid, .delegateAsked, .delegateAskedPriceConsent:
            return checkObservation(expectation)
        }
    }

    /// The current user's app receipt, verified against the test root for the store's app and the user's device.
    func verifiedReceipt() -> Result<AppReceipt, ReceiptError> {
        guard let deviceID = users[currentSeat]?.queue.deviceID else {
            return .failure(ReceiptError(.missingPayload, "no device"))
        }
        do throws(ReceiptError) {
            let bytes = try store.appReceipt(deviceID: deviceID)
            let verifier = try ReceiptVerifier(trustedRoots: [], trustsTestRoot: true)
            let options = ReceiptVerificationOptions(
                time: .date(clock.now),
                bundleIdentifier: store.app.bundleIdentifier,
                deviceIdentifier: SimulatedStore.deviceIdentifier(for: deviceID)
            )
            return .success(try verifier.verify(bytes, options: options).receipt)
        } catch {
            return .failure(error)
        }
    }

    private func uuidBytes(_ value: UInt64) -> uuid_t {
        let b = withUnsafeBytes(of: value.bigEndian) { Array($0) }
        return (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, b[2], b[3], b[4], b[5], b[6], b[7])
    }
}
