public import Foundation
import Synchronization

/// A headless onboarding: screens shown one after the other, reporting actions, the end of loading, errors and
/// analytics to an ``OnboardingControllerDelegate``.
///
/// A harness drives it as the user would (``appear()``, ``nextScreen(elementId:reply:)``, ``collectEmail()``,
/// ``tapCustomAction(_:)``, ``tapClose(_:)``, ``tapOpenPaywall(_:)``) or feeds it the raw payloads an onboarding's web
/// view sends (``receive(_:)``, ``receive(_:kind:)``), in either key style. Only one of an onboarding and a paywall is
/// on screen at a time: ``hand(over:)`` dismisses the onboarding before the paywall appears.
public final class OnboardingController: @unchecked Sendable {
    // @unchecked: mutable state lives in `state`, behind a mutex; `delegate` is the app's, set from its thread.

    private struct State {
        var onScreen = false
        var screenIndex = 0
    }

    /// The app's delegate, held weakly.
    public weak var delegate: (any OnboardingControllerDelegate)?
    /// The configuration shown.
    public let configuration: OnboardingConfiguration
    /// The shared context.
    public let context: PresentationContext
    /// The onboarding as the host sees it.
    public let presentedScreen: PresentedScreen
    private let state = Mutex(State())

    /// Creates a controller; it does nothing until the host puts it on screen (``appear()``).
    public init(
        configuration: OnboardingConfiguration, context: PresentationContext,
        delegate: (any OnboardingControllerDelegate)?
    ) {
        self.configuration = configuration
        self.context = context
        self.delegate = delegate
        self.presentedScreen = PresentedScreen(kind: .onboarding, id: configuration.onboardingId)
    }

    /// Whether it is on screen.
    public var isOnScreen: Bool { state.withLock { $0.onScreen } }
    /// The position of the screen shown, from 0.
    public var screenIndex: Int { state.withLock { $0.screenIndex } }

    /// The meta of a screen (the current one by default).
    public func meta(screen index: Int? = nil) -> OnboardingMeta {
        let index = index ?? screenIndex
        return OnboardingMeta(
            onboardingId: configuration.onboardingId,
            screenClientId: configuration.screens[index],
            screenIndex: index,
            screensTotal: configuration.screens.count
        )
    }

    // MARK: The harness

    /// The host put the onboarding on screen: `didFinishLoading`, then `onboardingStarted` and `screenPresented` for
    /// the first screen (and `onboardingCompleted` if it is `final`).
    ///
    /// - Throws: ``PaywallEventsError`` `invalidAction` when it is already on screen.
    public func appear() throws(PaywallEventsError) {
        let fresh = state.withLock { state -> Bool in
            guard !state.onScreen else { return false }
            state.onScreen = true
            return true
        }
        guard fresh else { throw invalid("it is already on screen") }
        context.host.didPresent(presentedScreen)
        context.record(.presented, from: presentedScreen)
        let meta = meta()
        deliver(.didFinishLoading(meta))
        deliver(.analytics(.onboardingStarted(meta: meta)))
        presented(meta)
    }

    /// The user left the current screen for the next: `screenCompleted` (with the element and reply), then
    /// `screenPresented`, `secondScreenPresented` for the second screen and `onboardingCompleted` for `final`.
    ///
    /// - Throws: ``PaywallEventsError`` `invalidAction` on the last screen or when not on screen.
    public func nextScreen(elementId: String? = nil, reply: String? = nil) throws(PaywallEventsError) {
        try requireOnScreen("go to the next screen")
        let left = meta()
        let moved = state.withLock { state -> Bool in
            guard state.screenIndex + 1 < configuration.screens.count else { return false }
            state.screenIndex += 1
            return true
        }
        guard moved else { throw invalid("screen \(left.screenClientId) is the last of \(left.screensTotal)") }
        deliver(.analytics(.screenCompleted(meta: left, elementId: elementId, reply: reply)))
        presented(meta())
    }

    /// The user entered an e-mail address: `userEmailCollected`.
    public func collectEmail() throws(PaywallEventsError) {
        try requireOnScreen("collect an e-mail")
        deliver(.analytics(.userEmailCollected(meta: meta())))
    }

    /// The user tapped a button with a custom action.
    public func tapCustomAction(_ actionId: String) throws(PaywallEventsError) {
        try requireOnScreen("tap \(actionId)")
        deliver(.custom(OnboardingAction(actionId: actionId, meta: meta())))
    }

    /// The user tapped close.
    public func tapClose(_ actionId: String = "close") throws(PaywallEventsError) {
        try requireOnScreen("close")
        deliver(.close(OnboardingAction(actionId: actionId, meta: meta())))
    }

    /// The user tapped a button that opens the paywall of a placement.
    public func tapOpenPaywall(_ placementId: String) throws(PaywallEventsError) {
        try requireOnScreen("open a paywall")
        deliver(.openPaywall(OnboardingAction(actionId: placementId, meta: meta())))
    }

    /// The onboarding's web view sent a payload of a known kind; it is decoded in either key style and delivered. A
    /// payload that does not decode reaches the delegate as `didFailWithError` with code `invalid_event`.
    public func receive(_ payload: Data, kind: OnboardingEvent.Kind) {
        do {
            deliver(try OnboardingEvent(kind: kind, json: payload))
        } catch {
            deliver(.error(error))
        }
    }

    /// The onboarding's web view sent a message whose `type` names its kind (see ``OnboardingEvent/init(json:)``).
    public func receive(_ message: Data) {
        do {
            deliver(try OnboardingEvent(json: message))
        } catch {
            deliver(.error(error))
        }
    }

    // MARK: The app

    /// Dismisses the onboarding. Does nothing when it is not on screen.
    public func dismiss() {
        let was = state.withLock { state -> Bool in
            defer { state.onScreen = false }
            return state.onScreen
        }
        guard was else { return }
        context.host.didDismiss(presentedScreen)
        context.record(.dismissed, from: presentedScreen)
    }

    /// Shows a paywall in place of the onboarding: dismisses the onboarding first, then puts the paywall on screen, so
    /// only one of them is ever on screen.
    public func hand(over paywall: any PresentableController) throws(PaywallEventsError) {
        dismiss()
        try paywall.appear()
    }

    // MARK: Delivering

    private func presented(_ meta: OnboardingMeta) {
        deliver(.analytics(.screenPresented(meta: meta)))
        if meta.screenIndex == 1 { deliver(.analytics(.secondScreenPresented(meta: meta))) }
        if meta.screenClientId == "final" { deliver(.analytics(.onboardingCompleted(meta: meta))) }
    }

    private func deliver(_ event: OnboardingEvent) {
        context.record(.onboarding(event), from: presentedScreen)
        guard let delegate else { return }
        switch event {
        case .custom(let action): delegate.onboardingController(self, onCustomAction: action)
        case .close(let action): delegate.onboardingController(self, onCloseAction: action)
        case .openPaywall(let action): delegate.onboardingController(self, onPaywallAction: action)
        case .didFinishLoading(let meta): delegate.onboardingController(self, didFinishLoading: meta)
        case .error(let error): delegate.onboardingController(self, didFailWithError: error)
        case .analytics(let event): delegate.onboardingController(self, onAnalyticsEvent: event)
        }
    }

    private func invalid(_ message: String) -> PaywallEventsError {
        PaywallEventsError(.invalidAction, "\(presentedScreen): \(message)")
    }

    private func requireOnScreen(_ action: String) throws(PaywallEventsError) {
        guard isOnScreen else { throw invalid("cannot \(action): it is not on screen; call appear() first") }
    }
}
