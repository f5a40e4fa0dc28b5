public import Foundation
public import OpenStoreKit
import StoreModels
public import StoreSimulator

/// The controls of the test environment: settings, transactions, Ask to Buy, subscriptions, refunds, purchases made
/// outside the app, failures. StoreKit Test's `SKTestSession`, on a store you can see into.
///
/// As on Apple platforms, a session made from a configuration file (``init(configurationFileNamed:)``,
/// ``init(contentsOf:)``) controls the store behind `SKPaymentQueue.default()`
/// (`SimulatedStore.default`), so existing tests work by changing `import StoreKitTest` to
/// `import OpenStoreKitTest`. That store is shared by every such session: run those tests serially. Beyond Apple, a
/// session made with ``init(store:)`` or ``init(configuration:store:)`` controls a store of its own, which tests
/// running in parallel never share:
///
/// ```swift
/// let store = SimulatedStore(lane: .manual)          // a manual clock, callbacks when runUntilIdle() runs
/// let session = SKTestSession(store: store)
/// let queue = SKPaymentQueue(store: store)
/// session.askToBuyEnabled = true
/// queue.add(observer)
/// queue.add(SKPayment(product: product))
/// store.runUntilIdle()                               // .purchasing, .deferred
/// try session.approveAskToBuyTransaction(identifier: session.allTransactions()[0].identifier)
/// try session.advance(by: 31 * 86_400)               // renewals, billing retry, expiries fall due in order
/// store.runUntilIdle()
/// ```
///
/// The settings of the configuration file set the session's defaults; changing a property overrides them until
/// ``resetToDefaultState()``. Transaction identifiers (`Int`) are the store's: the same number as the payment queue
/// transaction's `transactionIdentifier`. The session acts for the store's default account.
public final class SKTestSession: NSObject, Sendable {
    /// The environment variable naming folders (separated by `:`) where ``init(configurationFileNamed:)`` looks first.
    public static let configurationPathVariable = "OPENSTOREKIT_CONFIGURATION_PATH"

    /// The store this session controls.
    public let store: SimulatedStore

    /// Creates a session from the configuration file `<filename>.storekit`, controlling the store behind
    /// `SKPaymentQueue.default()`.
    ///
    /// The file is looked for in each folder named by the environment variable `OPENSTOREKIT_CONFIGURATION_PATH`
    /// (separated by `:`), then in the main bundle and every loaded bundle, then in the resource bundles SwiftPM builds
    /// beside the running test executable (so a test target's `resources: [.copy("Products.storekit")]` is found, as
    /// an Xcode test bundle's file is), then in the current directory; an absolute `filename` is taken as the path.
    /// The `.storekit` extension may be given or left out.
    ///
    /// - Throws: ``SKTestError`` `fileNotFound` naming the places searched, or `serviceUnavailable` for a file that
    ///   cannot be read as a configuration (naming the file and the key path).
    public convenience init(configurationFileNamed filename: String) throws(SKTestError) {
        try self.init(contentsOf: Self.locateConfiguration(named: filename))
    }

    /// Creates a session from a `.storekit` file, controlling the store behind `SKPaymentQueue.default()`: its catalog
    /// and settings become the file's. Its transactions stay; call ``clearTransactions()`` to start afresh.
    ///
    /// - Throws: ``SKTestError`` `invalidURL` for a URL that is not a file URL, `fileNotFound`, or
    ///   `serviceUnavailable` for a file that cannot be read as a configuration (naming the file and the key path).
    public convenience init(contentsOf fileURL: URL) throws(SKTestError) {
        try self.init(contentsOf: fileURL, store: .default)
    }

    /// Creates a session from a `.storekit` file for a given store, which takes the file's catalog and settings.
    ///
    /// - Throws: as ``init(contentsOf:)``.
    public convenience init(contentsOf fileURL: URL, store: SimulatedStore) throws(SKTestError) {
        guard fileURL.isFileURL else {
            throw SKTestError(
                .invalidURL,
                message: "\(fileURL.absoluteString) is not a file URL; pass the URL of a .storekit file on disk"
            )
        }
        let configuration: StoreConfiguration
        do throws(StoreSimulatorError) {
            configuration = try StoreConfiguration(contentsOf: fileURL)
        } catch {
            throw SKTestError(error)
        }
        self.init(configuration: configuration, store: store)
    }

    /// Creates a session for a store, which takes the configuration's catalog and settings.
    public init(configuration: StoreConfiguration, store: SimulatedStore) {
        store.reconfigure(configuration)
        store.applyTimeRateToClock()
        self.store = store
        super.init()
        startRealTimeRenewals()
    }

    /// Creates a session for a store as it is; its configuration's settings are the session's defaults.
    public init(store: SimulatedStore) {
        self.store = store
        super.init()
        startRealTimeRenewals()
    }

    /// A store whose clock runs by itself renews subscriptions as time passes, as StoreKit Test does.
    private func startRealTimeRenewals() {
        guard !(store.clock is ManualClock), !store.isProcessingDueEvents else { return }
        store.startProcessingDueEvents()
    }

    // MARK: Settings

    /// Every purchase waits for a parent's approval (Ask to Buy). Off by default.
    public var askToBuyEnabled: Bool {
        get { store.settings.askToBuyEnabled }
        set { store.updateSettings { $0.askToBuyEnabled = newValue } }
    }

    /// No purchase confirmation dialogs. A store has none, so this only records the setting.
    public var disableDialogs: Bool {
        get { store.settings.disableDialogs }
        set { store.updateSettings { $0.disableDialogs = newValue } }
    }

    /// Every purchase is interrupted: it fails until ``resolveIssueForTransaction(identifier:)`` resolves it.
    public var interruptedPurchasesEnabled: Bool {
        get { store.settings.interruptedPurchasesEnabled }
        set { store.updateSettings { $0.interruptedPurchasesEnabled = newValue } }
    }

    /// Every subscription renewal fails with a billing issue and enters billing retry.
    public var shouldEnterBillingRetryOnRenewal: Bool {
        get { store.settings.billingRetryOnRenewal }
        set { store.updateSettings { $0.billingRetryOnRenewal = newValue } }
    }

    /// Billing retry starts with a grace period in which the customer keeps access. No effect unless
    /// ``shouldEnterBillingRetryOnRenewal`` is on.
    public var billingGracePeriodIsEnabled: Bool {
        get { store.settings.billingGracePeriodEnabled }
        set { store.updateSettings { $0.billingGracePeriodEnabled = newValue } }
    }

    /// The storefront, as an ISO 3166-1 alpha-3 code such as `USA`. Changing it tells every payment queue
    /// (`paymentQueueDidChangeStorefront`).
    public var storefront: String {
        get { store.settings.storefront.countryCode }
        set { store.updateSettings { $0.storefront = Storefront(countryCode: newValue) } }
    }

    /// The locale whose product titles and descriptions `SKProductsRequest` returns. `en_US` by default.
    public var locale: Locale {
        get { Locale(identifier: store.settings.locale) }
        set { store.updateSettings { $0.locale = newValue.identifier } }
    }

    /// How fast time runs: how long grace periods and billing retry last and, for a store whose clock runs by itself,
    /// how fast the clock runs. Real time by default.
    public var timeRate: TimeRate {
        get { store.timeRate }
        set { store.setTimeRate(newValue) }
    }

    /// Every payment-queue transaction fails with ``failureError``.
    public var failTransactionsEnabled: Bool {
        get { store.settings.failTransactionsEnabled }
        set { store.updateSettings { $0.failTransactionsEnabled = newValue } }
    }

    /// The error of failing transactions; `.unknown` by default.
    public var failureError: SKError.Code {
        get { SKError.Code(rawValue: store.settings.failureError.rawValue) ?? .unknown }
        set { store.updateSettings { $0.failureError = StoreErrorCode(rawValue: newValue.rawValue) ?? .unknown } }
    }

    /// Makes an operation fail with an error until cleared with `nil`. The failure is the store's, the one StoreKit 2's
    /// `setSimulatedError(_:forAPI:)` sets too: `nil` here clears a failure set there.
    public func setSimulatedError(_ error: SKError?, forAPI api: FailableAPI) {
        let failure = error.map {
            StoreFailure(StoreErrorCode(rawValue: $0.code.rawValue) ?? .unknown, $0.message)
        }
        store.updateSettings { $0.simulatedErrors[api.storeAPI] = failure }
    }

    /// The error an operation is set to fail with, if any.
    public func simulatedError(forAPI api: FailableAPI) -> SKError? {
        store.settings.simulatedErrors[api.storeAPI].map {
            SKError(
                SKError.Code(rawValue: $0.code.rawValue) ?? .unknown,
                userInfo: [NSLocalizedDescriptionKey: $0.message]
            )
        }
    }

    /// Puts every setting back to the configuration's (the `.storekit` file's `settings`). Transactions stay.
    public func resetToDefaultState() {
        store.resetSettings()
        store.applyTimeRateToClock()
    }

    // MARK: Transactions

    /// Every transaction, oldest first: purchases, renewals, failed and pending ones, consumables.
    public func allTransactions() -> [SKTestTransaction] {
        store.allTransactions().map(SKTestTransaction.init)
    }

    /// Removes every transaction (and every subscription), so one-time purchases can be bought again.
    ///
    /// On a store whose clock runs by itself (the store behind `SKPaymentQueue.default()`), the clock also goes back to
    /// the system time if ``advance(by:)`` moved it ahead: with no history left, nothing depends on the time it showed.
    /// The store's clock observers (`StoreClockObserver`) may then hear an earlier time than before.
    public func clearTransactions() {
        store.clearTransactions()
        (store.clock as? TimeRateClock)?.returnToWallClock()
    }

    /// Deletes a transaction and those that descend from it (renewals of a subscription, restored copies).
    ///
    /// - Throws: ``SKTestError`` `noTransactionFound`.
    public func deleteTransaction(identifier: Int) throws(SKTestError) {
        let id = try Self.storeID(identifier)
        try perform(.deleteTransaction(id))
    }

    // MARK: Ask to Buy

    /// Approves a pending Ask to Buy request: its `.deferred` transaction becomes `.purchased`.
    ///
    /// - Throws: ``SKTestError`` `noTransactionFound`, or `invalidAction` if it does not wait for approval.
    public func approveAskToBuyTransaction(identifier: Int) throws(SKTestError) {
        let id = try Self.storeID(identifier)
        try perform(.approveAskToBuy(id))
    }

    /// Declines a pending Ask to Buy request: the `.deferred` transaction leaves the queue with no further callback.
    ///
    /// - Throws: ``SKTestError`` `noTransactionFound`, or `invalidAction` if it does not wait for approval.
    public func declineAskToBuyTransaction(identifier: Int) throws(SKTestError) {
        let id = try Self.storeID(identifier)
        try perform(.declineAskToBuy(id))
    }

    // MARK: Subscriptions

    /// Ends a subscription now: auto-renew goes off and its expiration date becomes now.
    ///
    /// - Throws: ``SKTestError`` `invalidProductIdentifier`, `invalidProductType`, or `noSubscriptionFound`.
    public func expireSubscription(productIdentifier: String) throws(SKTestError) {
        try perform(.expireSubscription(productID: productIdentifier))
    }

    /// Ends the current period now and starts the next: a new `.purchased` transaction for every payment queue of the
    /// account (or billing retry, while renewals fail).
    ///
    /// - Throws: ``SKTestError`` `invalidProductIdentifier`, `invalidProductType`, or `noSubscriptionFound`.
    public func forceRenewalOfSubscription(productIdentifier: String) throws(SKTestError) {
        try perform(.forceRenewal(productID: productIdentifier))
    }

    /// Turns auto-renew back on for the subscription of a transaction.
    ///
    /// - Throws: ``SKTestError`` `noTransactionFound`, `invalidProductType`, `noSubscriptionFound` or `invalidAction`.
    public func enableAutoRenewForTransaction(identifier: Int) throws(SKTestError) {
        let id = try Self.storeID(identifier)
        try perform(.setAutoRenew(true, transactionID: id))
    }

    /// Turns auto-renew off for the subscription of a transaction: it expires at the end of the period.
    ///
    /// - Throws: as ``enableAutoRenewForTransaction(identifier:)``.
    public func disableAutoRenewForTransaction(identifier: Int) throws(SKTestError) {
        let id = try Self.storeID(identifier)
        try perform(.setAutoRenew(false, transactionID: id))
    }

    /// Resolves an interrupted purchase (a new `.purchased` transaction for the same product and quantity, on the
    /// payment queue that failed) or the billing issue of a subscription in billing retry (it recovers now).
    ///
    /// - Throws: ``SKTestError`` `noTransactionFound`, or `invalidAction` if the transaction has no issue.
    public func resolveIssueForTransaction(identifier: Int) throws(SKTestError) {
        let id = try Self.storeID(identifier)
        try perform(.resolveIssue(id))
    }

    /// Marks a price increase of the subscription of a transaction as waiting for consent; without consent the
    /// subscription expires at the end of the period.
    ///
    /// - Throws: as ``enableAutoRenewForTransaction(identifier:)``.
    public func requestPriceIncreaseConsentForTransaction(identifier: Int) throws(SKTestError) {
        let id = try Self.storeID(identifier)
        try perform(.requestPriceIncreaseConsent(id))
    }

    /// The customer consents to the pending price increase: the subscription renews.
    ///
    /// - Throws: as ``enableAutoRenewForTransaction(identifier:)``; `invalidAction` if none is pending.
    public func consentToPriceIncreaseForTransaction(identifier: Int) throws(SKTestError) {
        let id = try Self.storeID(identifier)
        try perform(.consentToPriceIncrease(id))
    }

    /// The customer declines the pending price increase: auto-renew goes off.
    ///
    /// - Throws: as ``enableAutoRenewForTransaction(identifier:)``; `invalidAction` if none is pending.
    public func declinePriceIncreaseForTransaction(identifier: Int) throws(SKTestError) {
        let id = try Self.storeID(identifier)
        try perform(.declinePriceIncrease(id))
    }

    // MARK: Outside the app

    /// Buys a product outside the app: every payment queue of the account gets a new `.purchased` transaction.
    ///
    /// - Throws: ``SKTestError`` `invalidProductIdentifier`.
    public func buyProduct(productIdentifier: String) throws(SKTestError) {
        try perform(.buyProduct(productID: productIdentifier))
    }

    /// Starts a purchase in the App Store for the app to complete, as a customer who taps a promoted in-app purchase
    /// on the product page: StoreKit 2 emits a `PurchaseIntent` on `PurchaseIntent.intents`, and StoreKit 1 asks
    /// its observers `paymentQueue(_:shouldAddStorePayment:for:)`. Nothing is bought until the app completes it.
    /// (Xcode sends intents from a URL; this is the project's way for a test. See docs/decisions.md.)
    ///
    /// - Parameters:
    ///   - productIdentifier: The product.
    ///   - offerIdentifier: A promotional offer of the subscription to apply, or `nil`.
    /// - Throws: ``SKTestError`` `invalidProductIdentifier`, or `invalidAction` for an offer the product lacks.
    public func sendPurchaseIntent(productIdentifier: String, offerIdentifier: String? = nil) throws(SKTestError) {
        try Self.run { () throws(StoreSimulatorError) in
            try store.sendPurchaseIntent(productID: productIdentifier, offerID: offerIdentifier)
        }
    }

    /// Refunds a transaction now: it gets a cancellation date, a subscription ends, and payment queues hear
    /// `paymentQueue(_:didRevokeEntitlementsForProductIdentifiers:)` for a non-consumable or subscription.
    ///
    /// - Throws: ``SKTestError`` `noTransactionFound`, or `invalidAction` for a transaction that is not purchased or
    ///   was refunded already.
    public func refundTransaction(identifier: Int) throws(SKTestError) {
        let id = try Self.storeID(identifier)
        try perform(.refund(id))
    }

    // MARK: Time

    /// Moves the store's clock forward, producing every renewal, billing retry step and expiry on the way, in time
    /// order. See `SimulatedStore.advance(to:)`.
    ///
    /// This works on every store a session controls: a manual clock moves; the clock of the store behind
    /// `SKPaymentQueue.default()` (a `TimeRateClock`) moves by an offset over the system clock and
    /// runs on from the new time, so renewals due in between are handled and delivered to the payment queues on the
    /// main queue.
    ///
    /// - Throws: ``SKTestError`` `invalidAction` for an interval that is not finite or would take the clock past
    ///   9999-12-31T23:59:59Z (`dateOutOfRange`), or for a move that would produce more renewals than
    ///   `SimulatedStore.maximumRenewalsPerAdvance` (`tooManyRenewals`). A move refused before it
    ///   starts changes nothing; a move that reaches the limit on the way stops there, with everything up to then
    ///   applied.
    @discardableResult
    public func advance(by interval: TimeInterval) throws(SKTestError) -> [SubscriptionEvent] {
        try Self.run { () throws(StoreSimulatorError) in try store.advance(by: interval) }
    }

    /// Moves the store's clock to a date. See ``advance(by:)`` and `SimulatedStore.advance(to:)`.
    ///
    /// - Throws: as ``advance(by:)``.
    @discardableResult
    public func advance(to date: Date) throws(SKTestError) -> [SubscriptionEvent] {
        try perform(.advance(to: date)).subscriptionEvents
    }

    // MARK: Helpers

    /// Applies a store operation, its error as this session's.
    @discardableResult
    private func perform(_ operation: StoreOperation) throws(SKTestError) -> StoreOperation.Outcome {
        try Self.run { () throws(StoreSimulatorError) in try store.perform(operation) }
    }

    private static func storeID(_ identifier: Int) throws(SKTestError) -> UInt64 {
        guard let id = UInt64(exactly: identifier) else {
            throw SKTestError(.noTransactionFound, message: "no transaction has identifier \(identifier)")
        }
        return id
    }

    static func run<Value>(_ body: () throws(StoreSimulatorError) -> Value) throws(SKTestError) -> Value {
        do throws(StoreSimulatorError) {
            return try body()
        } catch {
            throw SKTestError(error)
        }
    }

    /// Finds `<name>.storekit` (see ``init(configurationFileNamed:)``).
    static func locateConfiguration(
        named filename: String,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        currentDirectory: String = FileManager.default.currentDirectoryPath,
        bundleFolders: [URL] = resourceFolders()
    ) throws(SKTestError) -> URL {
        let name = filename.hasSuffix(".storekit") ? filename : filename + ".storekit"
        var folders: [URL] = []
        if !name.hasPrefix("/") {
            for folder in (environment[configurationPathVariable] ?? "").split(separator: ":") where !folder.isEmpty {
                folders.append(URL(fileURLWithPath: String(folder)))
            }
            folders += bundleFolders
            folders.append(URL(fileURLWithPath: currentDirectory))
        }
        var candidates: [URL] = []
        var seen = Set<String>()
        for folder in folders where seen.insert(folder.standardizedFileURL.path).inserted {
            candidates.append(folder.appendingPathComponent(name))
        }
        if name.hasPrefix("/") { candidates.append(URL(fileURLWithPath: name)) }
        var isDirectory: ObjCBool = false
        for candidate in candidates
        where FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory)
            && !isDirectory.boolValue
        {
            return candidate
        }
        throw SKTestError(
            .fileNotFound,
            message: "\(name) not found; looked in "
                + candidates.map { $0.deletingLastPathComponent().path }.joined(separator: ", ")
                + "; add it to the test target's resources (`resources: [.copy(\"\(name)\")]` in Package.swift), "
                + "put it in the current directory, or set \(configurationPathVariable) to the folder holding it"
        )
    }

    /// The folders of the bundles where a configuration file may be, in the order they are searched: the main
    /// bundle's resources, those of every loaded bundle, then the resource bundles SwiftPM builds beside the
    /// running executable (`<Package>_<Target>.resources` on Linux, `.bundle` elsewhere), which hold the files a
    /// target lists under `resources:`.
    static func resourceFolders() -> [URL] {
        var folders: [URL] = []
        for bundle in [Bundle.main] + Bundle.allBundles {
            folders.append(bundle.resourceURL ?? bundle.bundleURL)
        }
        var places = [Bundle.main.bundleURL]
        if let executable = Bundle.main.executableURL { places.append(executable.deletingLastPathComponent()) }
        var scanned = Set<String>()
        for place in places where scanned.insert(place.standardizedFileURL.path).inserted {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: place.path)) ?? []
            for name in names.sorted() where name.hasSuffix(".resources") || name.hasSuffix(".bundle") {
                let url = place.appendingPathComponent(name)
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
                    isDirectory.boolValue
                else { continue }
                folders.append(name.hasSuffix(".bundle") ? (Bundle(url: url)?.resourceURL ?? url) : url)
            }
        }
        return folders
    }
}
