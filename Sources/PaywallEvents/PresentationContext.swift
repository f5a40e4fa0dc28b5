import Foundation
public import OpenStoreKit
public import Purchases
import Synchronization

/// What presented controllers share: the purchase module (and through it the payment queue and the store's
/// environment), the host, the user's profile identifier, a scheduler on the store's clock, web paywall visits and the
/// checkers recording the session.
///
/// A harness drives time through the context with `PaywallEventsTest`: `advance(by:)` moves the store's clock and runs
/// every piece of scheduled work (a products-load retry, a profile poll) at its moment; `runUntilIdle()` runs the
/// store's lane and whatever is due. Nothing sleeps.
public final class PresentationContext: @unchecked Sendable {
    // @unchecked: mutable state lives in `state`, behind a mutex; delegates are called outside the lock.

    /// The purchase module purchases and restores go through.
    public let purchases: PurchaseController
    /// The app around the controllers.
    public let host: any PresentationHost
    /// The user's profile identifier, put in web paywall URLs.
    public let profileId: String
    /// Work scheduled on the store's clock.
    public let scheduler: StoreScheduler
    /// How the profile is polled after a web paywall.
    public let pollingPolicy: ProfilePollingPolicy
    /// In observer mode, the app's own purchase code, called when the user taps purchase on a paywall.
    public let observerModeResolver: (@Sendable (PaywallProduct) -> Void)?

    private struct State {
        var recorders: [@Sendable (SessionEntry) -> Void] = []
        var callbacks: [PaywallEvent] = []
        var counted: [AnalyticsRecord] = []
        var visits: [WebPaywallVisit] = []
    }

    private let state = Mutex(State())

    /// Creates a context. (`PaywallEventsTest` adds one without a host, giving it a new `SimulatedHost`.)
    ///
    /// - Parameters:
    ///   - purchases: the purchase module; its queue's store provides the clock.
    ///   - host: opens URLs and learns what is on screen.
    ///   - profileId: the user's profile identifier.
    ///   - pollingPolicy: how the profile is polled after a web paywall.
    ///   - observerModeResolver: in observer mode, the app's own purchase code for a product tapped on a paywall.
    public init(
        purchases: PurchaseController,
        host: any PresentationHost,
        profileId: String,
        pollingPolicy: ProfilePollingPolicy = .default,
        observerModeResolver: (@Sendable (PaywallProduct) -> Void)? = nil
    ) {
        self.purchases = purchases
        self.host = host
        self.profileId = profileId
        self.pollingPolicy = pollingPolicy
        self.observerModeResolver = observerModeResolver
        self.scheduler = StoreScheduler(clock: purchases.queue.environment.clock)
    }

    /// The store behind the purchase module's queue, as app-side code sees it.
    public var environment: any StoreEnvironment { purchases.queue.environment }

    // MARK: Recording

    /// Records every controller of this context in a checker from now on.
    public func add(_ checker: ConformanceChecker) {
        addRecorder(checker.record)
    }

    /// Hands every entry of every controller of this context to `record` from now on, as it happens (an event log,
    /// a checker of your own). Entries arrive on the thread that drives the controllers.
    public func addRecorder(_ record: @escaping @Sendable (SessionEntry) -> Void) {
        state.withLock { $0.recorders.append(record) }
    }

    /// What the library counted for itself (its "backend" analytics, such as `flow_screen_showed`), in order.
    public var countedAnalytics: [AnalyticsRecord] { state.withLock { $0.counted } }

    /// The delegate callback running now (the outermost), if any.
    var currentCallback: PaywallEvent? { state.withLock { $0.callbacks.first } }

    func record(_ fact: SessionEntry.Fact, from source: PresentedScreen?) {
        let (recorders, during) = state.withLock { ($0.recorders, $0.callbacks.first) }
        guard !recorders.isEmpty else { return }
        let entry = SessionEntry(source: source, fact: fact, during: during, time: environment.now)
        for record in recorders { record(entry) }
    }

    /// Records a callback, then runs `body` (the delegate call) with the callback marked as running.
    func deliver<T>(_ event: PaywallEvent, from source: PresentedScreen, _ body: () -> T) -> T {
        record(.callback(event), from: source)
        state.withLock { $0.callbacks.append(event) }
        defer { state.withLock { _ = $0.callbacks.popLast() } }
        return body()
    }

    func count(_ record: AnalyticsRecord, from source: PresentedScreen) {
        state.withLock { $0.counted.append(record) }
        self.record(.counted(record), from: source)
    }

    // MARK: Web paywalls

    /// Opens the web paywall of a product: its unique URL (``WebPaywallURL/make(for:profileId:)-(PaywallProduct,_)``)
    /// in a browser. When the user comes back (``userDidReturnToApp()``) the profile is polled until an access level
    /// the product grants is active.
    ///
    /// - Throws: ``PaywallEventsError`` `productWithoutPurchaseUrl`, `failedDecodingWebPaywallUrl`, or
    ///   `failedOpeningWebPaywallUrl` when the host's browser cannot open it.
    @discardableResult
    public func openWebPaywall(
        for product: PaywallProduct,
        in presentation: WebPresentation = .externalBrowser
    ) throws(PaywallEventsError) -> WebPaywallVisit {
        let url = try WebPaywallURL.make(for: product, profileId: profileId)
        return try open(url, in: presentation, granting: purchases.entitlements.accessLevels[product.vendorProductId])
    }

    /// Opens the web paywall of a paywall, without product data. When the user comes back the profile is polled
    /// until an access level one of the paywall's products grants is active.
    ///
    /// - Throws: ``PaywallEventsError`` `paywallWithoutPurchaseUrl`, `failedDecodingWebPaywallUrl`, or
    ///   `failedOpeningWebPaywallUrl` when the host's browser cannot open it.
    @discardableResult
    public func openWebPaywall(
        for paywall: PaywallConfiguration,
        in presentation: WebPresentation = .externalBrowser
    ) throws(PaywallEventsError) -> WebPaywallVisit {
        let url = try WebPaywallURL.make(for: paywall, profileId: profileId)
        let levels = paywall.productIds.reduce(into: Set<String>()) { levels, id in
            levels.formUnion(purchases.entitlements.accessLevels[id] ?? [])
        }
        return try open(url, in: presentation, granting: levels)
    }

    private func open(
        _ url: URL, in presentation: WebPresentation, granting levels: Set<String>?
    ) throws(PaywallEventsError) -> WebPaywallVisit {
        guard host.open(url, in: presentation) else {
            throw PaywallEventsError(
                .failedOpeningWebPaywallUrl,
                "the \(presentation == .externalBrowser ? "external" : "in-app") browser could not open "
                    + url.absoluteString
            )
        }
        let visit = WebPaywallVisit(url: url, presentation: presentation, accessLevels: levels ?? [])
        state.withLock { $0.visits.append(visit) }
        return visit
    }

    /// Every web paywall opened, in order.
    public var webPaywallVisits: [WebPaywallVisit] { state.withLock { $0.visits } }

    /// The user came back to the app: every web paywall visit still in the browser starts polling the profile, now and
    /// then every ``ProfilePollingPolicy/interval`` seconds of store time, until its access level is active or
    /// ``ProfilePollingPolicy/timeout`` seconds have passed.
    public func userDidReturnToApp() {
        let now = environment.now
        for visit in webPaywallVisits where visit.returned(at: now) { poll(visit, startedAt: now) }
    }

    private func poll(_ visit: WebPaywallVisit, startedAt start: Date) {
        let profile: Profile
        do throws(PurchasesError) {
            profile = try purchases.refreshProfile()
            visit.polled(failing: nil)
        } catch {
            profile = purchases.profile
            visit.polled(failing: error)
        }
        let now = environment.now
        if visit.isGranted(by: profile) { return visit.end(.accessGranted(profile), at: now) }
        let deadline = start.addingTimeInterval(pollingPolicy.timeout)
        guard now < deadline else { return visit.end(.timedOut(profile), at: now) }
        scheduler.schedule(at: min(now.addingTimeInterval(pollingPolicy.interval), deadline)) { [weak self] in
            self?.poll(visit, startedAt: start)
        }
    }
}
