import Foundation
import PaywallEvents
import PaywallEventsTest
import Testing

/// An onboarding delegate that records what it hears and opens paywalls as told.
final class OnboardingRecorder: OnboardingControllerDelegate, @unchecked Sendable {
    // @unchecked: used on one thread, the one driving the manual store.
    var events: [OnboardingEvent] = []
    var paywall: (any PresentableController)?
    var dismissFirst = true

    func onboardingController(_ controller: OnboardingController, onCustomAction action: OnboardingAction) {
        events.append(.custom(action))
    }
    func onboardingController(_ controller: OnboardingController, onCloseAction action: OnboardingAction) {
        events.append(.close(action))
        controller.dismiss()
    }
    func onboardingController(_ controller: OnboardingController, onPaywallAction action: OnboardingAction) {
        events.append(.openPaywall(action))
        guard let paywall else { return }
        if dismissFirst {
            try? controller.hand(over: paywall)
        } else {
            try? paywall.appear()
        }
    }
    func onboardingController(_ controller: OnboardingController, didFinishLoading meta: OnboardingMeta) {
        events.append(.didFinishLoading(meta))
    }
    func onboardingController(_ controller: OnboardingController, didFailWithError error: PaywallEventsError) {
        events.append(.error(error))
    }
    func onboardingController(_ controller: OnboardingController, onAnalyticsEvent event: OnboardingAnalyticsEvent) {
        events.append(.analytics(event))
    }

    var names: [String] {
        events.map { event in
            switch event {
            case .analytics(let analytics): analytics.name(.camelCase)
            case .custom(let action): "custom \(action.actionId)"
            case .close(let action): "close \(action.actionId)"
            case .openPaywall(let action): "openPaywall \(action.actionId)"
            case .didFinishLoading: "didFinishLoading"
            case .error(let error): "error \(error.code.name)"
            }
        }
    }
}

@Suite("The onboarding controller")
struct OnboardingControllerTests {
    static let configuration = OnboardingConfiguration(onboardingId: "welcome", screens: ["intro", "profile", "final"])

    func presented() throws -> (Session, OnboardingController, OnboardingRecorder) {
        let session = Session()
        let recorder = OnboardingRecorder()
        let onboarding = OnboardingController(
            configuration: Self.configuration, context: session.context, delegate: recorder)
        try onboarding.appear()
        return (session, onboarding, recorder)
    }

    @Test("Loading, the first screen, the second, an e-mail and the final screen")
    func analytics() throws {
        let (_, onboarding, recorder) = try presented()
        try onboarding.nextScreen(elementId: "start_button")
        try onboarding.collectEmail()
        try onboarding.nextScreen(elementId: "profile_form", reply: "success")
        #expect(throws: PaywallEventsError(.invalidAction, "")) { try onboarding.nextScreen() }
        #expect(
            recorder.names == [
                "didFinishLoading", "onboardingStarted", "screenPresented", "screenCompleted", "screenPresented",
                "secondScreenPresented", "userEmailCollected", "screenCompleted", "screenPresented",
                "onboardingCompleted",
            ])
        #expect(
            recorder.events[7]
                == .analytics(
                    .screenCompleted(
                        meta: OnboardingMeta(
                            onboardingId: "welcome", screenClientId: "profile", screenIndex: 1, screensTotal: 3),
                        elementId: "profile_form", reply: "success")))
        #expect(recorder.events.last == .analytics(.onboardingCompleted(meta: onboarding.meta(screen: 2))))
    }

    @Test("Custom, close and open-paywall actions carry their action id and meta")
    func actions() throws {
        let (session, onboarding, recorder) = try presented()
        try onboarding.tapCustomAction("allowNotifications")
        try onboarding.tapOpenPaywall("premium_placement")
        try onboarding.tapClose()
        #expect(
            recorder.names.suffix(3) == ["custom allowNotifications", "openPaywall premium_placement", "close close"])
        #expect(recorder.events.last == .close(OnboardingAction(actionId: "close", meta: onboarding.meta())))
        #expect(!onboarding.isOnScreen)
        #expect(session.host.onScreen.isEmpty)
    }

    @Test("Raw payloads from the web view are decoded in either style; broken ones become errors")
    func receive() throws {
        let (_, onboarding, recorder) = try presented()
        onboarding.receive(
            Data(
                #"{"action_id": "allowNotifications", "meta": {"onboarding_id": "welcome", "screen_cid": "intro", "screen_index": 0, "total_screens": 3}}"#
                    .utf8),
            kind: .custom)
        onboarding.receive(
            Data(
                #"{"type": "analytics", "name": "userEmailCollected", "meta": {"onboardingId": "welcome", "screenClientId": "intro", "screenIndex": 0, "screensTotal": 3}}"#
                    .utf8))
        onboarding.receive(Data(#"{"name": "screen_presented"}"#.utf8))
        #expect(recorder.names.suffix(3) == ["custom allowNotifications", "userEmailCollected", "error invalid_event"])
    }

    @Test("Handing over to a paywall dismisses the onboarding first: only one of them is on screen")
    func handOver() throws {
        let (session, onboarding, recorder) = try presented()
        let flow = FlowController(configuration: Session.configuration(), context: session.context, delegate: nil)
        recorder.paywall = flow
        try onboarding.tapOpenPaywall("onboarding_end")
        #expect(
            session.host.history == [
                "present onboarding:welcome", "dismiss onboarding:welcome", "present flow:onboarding_end",
            ])
        #expect(session.host.onScreen == [flow.presentedScreen])
        #expect(session.rules == [])
    }

    @Test("A paywall shown over the onboarding is reported")
    func overOnboarding() throws {
        let (session, onboarding, recorder) = try presented()
        let paywall = PaywallController(
            configuration: Session.configuration(), context: session.context, delegate: MinimalPaywallDelegate())
        recorder.paywall = paywall
        recorder.dismissFirst = false
        try onboarding.tapOpenPaywall("onboarding_end")
        #expect(session.host.onScreen.count == 2)
        #expect(session.rules == [.paywallOverOnboarding])
    }
}
