import Foundation
import OpenStoreKit
import StoreModels
import StoreSimulator

/// Carries out a feed's steps on a fresh manual store: opens the store, turns each step into a `StoreOperation`, a
/// device's call or a change of the app, and hands `expect` steps to the checker, writing a line for each step.
///
/// What the app knows is in ``world``; what it hears is recorded by ``recorder``; ``checker`` checks expectations.
final class FeedInterpreter {
    let file: String
    let baseDirectory: URL?
    /// The state file (or server database URL) the store lives in, or `nil` for an in-memory store.
    let statePath: String?
    /// How the store on ``statePath`` commits.
    let durability: StoreDurability
    /// The server the store is served by, in a served run (FeedInterpreter+Serving.swift).
    let server: (any FeedServer)?
    /// The app, its users and devices, and what they heard.
    let world: FeedWorld
    /// The event log.
    let log: FeedEventWriter
    /// What turns the app's callbacks into the world and the log.
    let recorder: FeedRecorder
    /// What checks `expect` steps.
    let checker: FeedExpectationChecker
    private let start: Date
    private var currentLine = 0
    /// The configurations the feed's `config` steps load, by source, loaded once when the feed is checked.
    private(set) var configurations: [String: StoreConfiguration] = [:]
    /// The compact JWS of the signed offer files the feed's `sk2 buy` steps name, by path, read when it is checked.
    private(set) var signedOffers: [String: String] = [:]
    /// The public half (PEM) of the In-App Purchase key of each `.p8` file the feed's `offer-key` steps name, by path,
    /// read when it is checked.
    private(set) var offerKeys: [String: String] = [:]
    /// Storefront changes waiting for the next purchase of a product (`""` for any product), from `next` steps.
    private var storefrontChanges: [String: String] = [:]
    /// Called after each step with the number of steps run so far.
    var progress: ((Int) -> Void)?

    /// The store the feed runs on; a restart on a state file replaces it.
    var store: SimulatedStore { world.store }
    var clock: ManualClock { world.clock }

    init(
        file: String, baseDirectory: URL?, sink: any EventLogSink, statePath: String? = nil,
        commitsEveryChange: Bool = false, server: (any FeedServer)? = nil
    ) throws(FeedError) {
        self.file = file
        self.baseDirectory = baseDirectory
        self.statePath = statePath
        self.server = server
        var app = AppIdentity()
        if let bundleIdentifier = server?.bundleIdentifier { app.bundleIdentifier = bundleIdentifier }
        // Once per step by default: the run flushes after each step (run(_:includeReceipt:)), and the commit reaches
        // the operating system without waiting for the disk (it survives the process being killed).
        self.durability = commitsEveryChange ? StoreDurability() : .perStep
        let clock = ManualClock()
        let store: SimulatedStore
        if let statePath {
            store = try Self.openStore(statePath, durability: durability, clock: clock, app: app, file: file)
        } else {
            store = SimulatedStore(configuration: .demo, clock: clock, lane: .manual, app: app)
        }
        world = FeedWorld(store: store, clock: clock)
        log = FeedEventWriter(sink: sink, clock: clock)
        recorder = FeedRecorder(world: world, log: log, server: server)
        checker = FeedExpectationChecker(world: world, recorder: recorder)
        self.start = clock.now
    }

    /// Opens the durable store of a state file or server database.
    private static func openStore(
        _ path: String, durability: StoreDurability, clock: ManualClock, app: AppIdentity, file: String
    ) throws(FeedError) -> SimulatedStore {
        do throws(StoreSimulatorError) {
            return try SimulatedStore(
                database: path, durability: durability, configuration: .demo, clock: clock, lane: .manual, app: app)
        } catch {
            throw FeedError(
                .unusableState, file: file, line: 0, column: 0, error.detail,
                hint: "give a new path (or database), or the state of an earlier run")
        }
    }

    // MARK: Running

    func run(_ source: FeedSource, includeReceipt: Bool = false, includeSignedData: Bool = false) throws(FeedError)
        -> FeedResult
    {
        let parser = FeedParser(file: file, baseDirectory: baseDirectory)
        let checked = try FeedChecker(parser: parser).check(source, startingWith: store.configuration)
        configurations = checked.configurations
        signedOffers = checked.signedOffers
        offerKeys = checked.offerKeys
        try startServing(checked.firstNotificationExpectation)
        var steps = 0
        var failure: FeedResult.Failure?
        ensureUser(world.currentUser, device: FeedWorld.mainDevice)
        try parser.forEachStep(in: source) { (line: FeedLine) throws(FeedError) in
            guard failure == nil else { return }
            steps += 1
            currentLine = line.line
            var event = log.line("step")
            event.add("line", line.line)
            event.add("step", line.text)
            log.write(event)
            if let message = try perform(line.step, line: line) {
                failure = FeedResult.Failure(line: line.line, step: line.text, message: message)
                var failed = log.line("failed")
                failed.add("line", line.line)
                failed.add("message", message)
                log.write(failed)
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
        if server != nil, failure == nil, let message = checker.notificationsSettled() {
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
            expectations: checker.expectations,
            failure: failure,
            simulatedSeconds: clock.now.timeIntervalSince(start),
            receipt: includeReceipt
                ? world.devices[world.currentSeat].flatMap { try? store.appReceipt(deviceID: $0.queue.deviceID) } : nil
        )
        if includeSignedData { result.signedData = signedData() }
        var end = log.line(result.passed ? "passed" : "failed-feed")
        end.add("steps", steps)
        end.add("expectations", checker.expectations)
        log.write(end)
        return result
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
        case .offerKey(let keyID, let path):
            guard let pem = offerKeys[path] else {
                return "the key file \(path) was not read when the feed was checked"
            }
            store.updateSettings { $0.subscriptionOfferKeys[keyID] = pem }
        case .set(.accountAskToBuy(let on)):
            store.updateAccountSettings(world.currentUser) { $0.askToBuyEnabled = on }
        case .set(.accountPayments(let on)):
            store.updateAccountSettings(world.currentUser) { $0.paymentsAllowed = on }
        case .set(let setting):
            apply(setting)
        case .user(let name):
            ensureUser(name, device: world.currentDevices[name] ?? FeedWorld.mainDevice)
            world.currentUser = name
        case .device(let name):
            ensureUser(world.currentUser, device: name)
            world.currentDevices[world.currentUser] = name
        case .addObserver(let name, let policy, let storePayments):
            let observer = FeedObserver(
                name: name, user: world.currentUser, device: world.currentDevice, policy: policy,
                storePayments: storePayments,
                recorder: recorder)
            world.devices[world.currentSeat]?.observers.append(observer)
            world.devices[world.currentSeat]?.queue.add(observer)
        case .removeObserver(let name):
            guard let observer = world.devices[world.currentSeat]?.observers.first(where: { $0.name == name }) else {
                return "\(world.currentSeatDescription) has no observer named \(name)"
            }
            world.devices[world.currentSeat]?.queue.remove(observer)
            world.devices[world.currentSeat]?.observers.removeAll { $0 === observer }
        case .delegate(let answer):
            let priceConsent = world.devices[world.currentSeat]?.delegate?.priceConsentAnswer ?? true
            let delegate = answer.map {
                FeedDelegate(
                    user: world.currentUser, device: world.currentDevice, answer: $0, priceConsentAnswer: priceConsent,
                    recorder: recorder)
            }
            world.devices[world.currentSeat]?.delegate = delegate
            world.devices[world.currentSeat]?.queue.delegate = delegate
        case .delegatePriceConsent(let show):
            let delegate = FeedDelegate(
                user: world.currentUser, device: world.currentDevice,
                answer: world.devices[world.currentSeat]?.delegate?.answer ?? true,
                priceConsentAnswer: show, recorder: recorder)
            world.devices[world.currentSeat]?.delegate = delegate
            world.devices[world.currentSeat]?.queue.delegate = delegate
        case .showPriceConsent:
            world.devices[world.currentSeat]?.queue.showPriceConsentIfNeeded()
        case .buy(let product, let quantity, let username, let offer, let askToBuy, let handle):
            guard let queue = world.devices[world.currentSeat]?.queue else { return nil }
            let payment = SKMutablePayment()
            payment.productIdentifier = product
            payment.quantity = quantity
            payment.applicationUsername = username
            payment.simulatesAskToBuyInSandbox = askToBuy
            if let offer {
                payment.paymentDiscount = SKPaymentDiscount(
                    identifier: offer,
                    keyIdentifier: "FEEDKEY",
                    nonce: UUID(uuid: uuidBytes(UInt64(log.sequence))),
                    signature: "c2lnbmVkIGJ5IHRoZSBmZWVk",
                    timestamp: NSNumber(value: Int64(clock.now.timeIntervalSince1970 * 1000))
                )
            }
            queue.add(payment)
            if let code = storefrontChanges.removeValue(forKey: product) ?? storefrontChanges.removeValue(forKey: "") {
                store.updateSettings { $0.storefront = Storefront(countryCode: code) }
            }
            if let added = queue.transactions.last {
                world.track(added.storeIdentifier, product: product, handle: handle)
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
            guard let id = world.resolve(reference), let queue = world.devices[world.currentSeat]?.queue,
                let transaction = queue.transactions.first(where: { $0.storeIdentifier == id })
            else { return "\(reference) is not in the queue of \(world.currentSeatDescription)" }
            queue.finishTransaction(transaction)
            recorder.noteExceptions(for: transaction, on: world.currentSeat, by: nil)
        case .restore(let username):
            world.devices[world.currentSeat]?.restore = nil
            world.devices[world.currentSeat]?.queue.restoreCompletedTransactions(withApplicationUsername: username)
        case .advance(let duration):
            let target = duration.after(clock.now)
            guard target <= ISO8601.latest else {
                return "the clock would pass \(ISO8601.format(ISO8601.latest)), the latest date a feed's clock reaches"
            }
            // Each renewal is logged as the store handles it, before the callbacks it causes, which run during the move.
            return perform(.advance(to: target)) { recorder.record($0) }
        case .refund(let reference, let percentage):
            return perform(reference) { .refund($0, percentage: percentage) }
        case .family(let name, let users):
            return perform(.joinFamily(name, accounts: users))
        case .leaveFamily(let user):
            return perform(.leaveFamily(account: user))
        case .reverseRefund(let reference):
            return perform(reference) { .reverseRefund($0) }
        case .cancellationFlow(let reference, let locale):
            return cancellationFlow(reference, locale: locale)
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
                    .buyProduct(productID: product, quantity: quantity, account: world.currentUser))
                guard let record = outcome.transaction else { return nil }
                world.track(record.id, product: product, handle: handle)
            } catch { return error.detail }
        case .expire(let product):
            return perform(.expireSubscription(productID: product, account: world.currentUser), logging: true)
        case .renew(let product):
            return perform(.forceRenewal(productID: product, account: world.currentUser), logging: true)
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
            return checker.check(expectation)
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
            if logging { recorder.record(outcome.subscriptionEvents) }
        } catch { return error.detail }
        return nil
    }

    /// Applies the store operation `make` builds for the transaction a step names (a handle or an identifier).
    private func perform(_ reference: FeedStep.Reference, _ make: (UInt64) -> StoreOperation) -> String? {
        guard let id = world.resolve(reference) else { return "no transaction \(reference) was seen" }
        return perform(make(id))
    }

    /// A promoted in-app purchase bought in the App Store: the product is loaded as the app would, then the store
    /// sends its purchase intent to the current device (`SimulatedStore.sendPurchaseIntent`), so that StoreKit 1 asks
    /// each observer whether to add the payment (adding it when one says yes) and StoreKit 2's
    /// `PurchaseIntent.intents` hears it. The payment added gets the step's handle.
    private func promote(_ product: String, handle: String?) -> String? {
        guard let queue = world.devices[world.currentSeat]?.queue else { return nil }
        if case .failure(let failure) = FeedProductLoader.load(product, from: store) { return failure.message }
        world.promotion = FeedWorld.Promotion(seat: world.currentSeat, product: product, handle: handle)
        defer { world.promotion = nil }
        do throws(StoreSimulatorError) {
            try store.sendPurchaseIntent(productID: product, account: queue.account, deviceID: queue.deviceID)
        } catch {
            return error.detail
        }
        store.runUntilIdle()
        return nil
    }

    private func uuidBytes(_ value: UInt64) -> uuid_t {
        let b = withUnsafeBytes(of: value.bigEndian) { Array($0) }
        return (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, b[2], b[3], b[4], b[5], b[6], b[7])
    }
}
