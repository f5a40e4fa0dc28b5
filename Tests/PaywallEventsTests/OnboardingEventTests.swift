import Foundation
import PaywallEvents
import Testing

/// The example payloads, in both key styles.
@Suite("Onboarding events")
struct OnboardingEventTests {
    static let snakeMeta =
        #""meta": {"onboarding_id": "onboarding_123", "screen_cid": "profile_screen", "screen_index": 1, "total_screens": 4}"#
    static let camelMeta =
        #""meta": {"onboardingId": "onboarding_123", "screenClientId": "profile_screen", "screenIndex": 1, "screensTotal": 4}"#
    static let meta = OnboardingMeta(
        onboardingId: "onboarding_123", screenClientId: "profile_screen", screenIndex: 1, screensTotal: 4)

    static func both(_ kind: OnboardingEvent.Kind, _ snake: String, _ camel: String, _ expected: OnboardingEvent)
        -> [(OnboardingEvent.Kind, String, OnboardingEvent)]
    {
        [(kind, "{\(snake), \(snakeMeta)}", expected), (kind, "{\(camel), \(camelMeta)}", expected)]
    }

    static let examples: [(OnboardingEvent.Kind, String, OnboardingEvent)] =
        both(
            .custom, #""action_id": "allowNotifications""#, #""actionId": "allowNotifications""#,
            .custom(OnboardingAction(actionId: "allowNotifications", meta: meta)))
        + both(
            .close, #""action_id": "close_button""#, #""actionId": "close_button""#,
            .close(OnboardingAction(actionId: "close_button", meta: meta)))
        + both(
            .openPaywall, #""action_id": "premium_placement""#, #""actionId": "premium_placement""#,
            .openPaywall(OnboardingAction(actionId: "premium_placement", meta: meta)))
        + both(.didFinishLoading, #""loaded": true"#, #""loaded": true"#, .didFinishLoading(meta))
        + both(
            .analytics, #""name": "onboarding_started""#, #""name": "onboardingStarted""#,
            .analytics(.onboardingStarted(meta: meta)))
        + both(
            .analytics, #""name": "screen_presented""#, #""name": "screenPresented""#,
            .analytics(.screenPresented(meta: meta)))
        + both(
            .analytics, #""name": "screen_completed", "params": {"element_id": "profile_form", "reply": "success"}"#,
            #""name": "screenCompleted", "params": {"elementId": "profile_form", "reply": "success"}"#,
            .analytics(.screenCompleted(meta: meta, elementId: "profile_form", reply: "success")))
        + both(
            .analytics, #""name": "screen_completed""#, #""name": "screenCompleted""#,
            .analytics(.screenCompleted(meta: meta, elementId: nil, reply: nil)))
        + both(
            .analytics, #""name": "second_screen_presented""#, #""name": "secondScreenPresented""#,
            .analytics(.secondScreenPresented(meta: meta)))
        + both(
            .analytics, #""name": "user_email_collected""#, #""name": "userEmailCollected""#,
            .analytics(.userEmailCollected(meta: meta)))
        + both(
            .analytics, #""name": "onboarding_completed""#, #""name": "onboardingCompleted""#,
            .analytics(.onboardingCompleted(meta: meta)))
        + both(
            .analytics, #""name": "paywall_peeked", "params": {"seconds": 3}"#,
            #""name": "paywallPeeked", "params": {"seconds": 3}"#,
            .analytics(.unknown(name: "paywall_peeked", meta: meta, params: ["seconds": 3])))

    @Test("Every example payload decodes, in both key styles", arguments: examples)
    func decode(kind: OnboardingEvent.Kind, payload: String, expected: OnboardingEvent) throws {
        let event = try OnboardingEvent(kind: kind, json: Data(payload.utf8))
        if case .analytics(.unknown(let name, let meta, let params)) = event {
            #expect(["paywall_peeked", "paywallPeeked"].contains(name), "an unknown event keeps its name as sent")
            #expect(meta == Self.meta)
            #expect(params == ["seconds": 3])
        } else {
            #expect(event == expected)
        }
        #expect(event.kind == kind)
    }

    @Test("The specification's analytics example decodes as it is")
    func specExample() throws {
        let payload = #"""
            {"name": "screen_completed", "meta": {"onboarding_id": "onboarding_123", "screen_cid": "profile_screen",
             "screen_index": 1, "total_screens": 4}, "params": {"element_id": "profile_form", "reply": "success"}}
            """#
        let event = try OnboardingEvent(json: Data(payload.utf8))
        #expect(event == .analytics(.screenCompleted(meta: Self.meta, elementId: "profile_form", reply: "success")))
    }

    @Test("Keys of both styles may be mixed in one payload")
    func mixed() throws {
        let payload =
            #"{"actionId": "x", "meta": {"onboarding_id": "o", "screenClientId": "s", "screen_index": 2, "screensTotal": 3}}"#
        let event = try OnboardingEvent(kind: .close, json: Data(payload.utf8))
        #expect(
            event
                == .close(
                    OnboardingAction(
                        actionId: "x",
                        meta: OnboardingMeta(onboardingId: "o", screenClientId: "s", screenIndex: 2, screensTotal: 3))))
    }

    @Test("Errors decode with a code name or number; without a code they are rendering failures")
    func errors() throws {
        let named = try OnboardingEvent(
            kind: .error, json: Data(#"{"code": "script_error", "message": "x is undefined"}"#.utf8))
        #expect(named == .error(PaywallEventsError(.scriptError, "")))
        let numbered = try OnboardingEvent(kind: .error, json: Data(#"{"code": 4105, "message": "boom"}"#.utf8))
        guard case .error(let error) = numbered else { return }
        #expect(error.code.rawValue == 4105)
        #expect(error.message == "boom")
        let bare = try OnboardingEvent(kind: .error, json: Data(#"{"message": "webview crashed"}"#.utf8))
        #expect(bare == .error(PaywallEventsError(.renderingFailed, "")))
    }

    @Test("Messages with a type in either style, and without one, pick their kind")
    func messages() throws {
        let typed = try OnboardingEvent(
            json: Data(#"{"type": "openPaywall", "actionId": "premium", \#(Self.camelMeta)}"#.utf8))
        #expect(typed == .openPaywall(OnboardingAction(actionId: "premium", meta: Self.meta)))
        let snake = try OnboardingEvent(
            json: Data(#"{"type": "did_finish_loading", \#(Self.snakeMeta)}"#.utf8))
        #expect(snake == .didFinishLoading(Self.meta))
        let onlyMeta = try OnboardingEvent(json: Data("{\(Self.snakeMeta)}".utf8))
        #expect(onlyMeta == .didFinishLoading(Self.meta))
        #expect(throws: PaywallEventsError(.invalidEvent, "")) {
            try OnboardingEvent(json: Data(#"{"action_id": "x", \#(Self.snakeMeta)}"#.utf8))
        }
        #expect(throws: PaywallEventsError(.invalidEvent, "")) {
            try OnboardingEvent(json: Data(#"{"type": "teleport", \#(Self.snakeMeta)}"#.utf8))
        }
    }

    @Test(
        "Malformed payloads are refused with a message naming the field",
        arguments: [
            (#"{"action_id": "x"}"#, "onboarding event custom: meta is missing; send it as an object"),
            (#"{"action_id": 7, "meta": {}}"#, "actionId (or action_id) must be text, not 7"),
            (
                #"{"action_id": "x", "meta": {"onboarding_id": "o", "screen_cid": "s", "screen_index": "one", "total_screens": 2}}"#,
                #"meta.screenIndex (or screen_index) must be a whole number, not "one""#
            ),
            (
                #"{"action_id": "x", "meta": {"onboarding_id": "o", "screen_cid": "s", "screen_index": 0}}"#,
                "meta.screensTotal (or total_screens) is missing"
            ),
            (#"["not", "an", "object"]"#, "the payload must be a JSON object"),
            ("{not json", "the payload is not JSON"),
        ]
    )
    func malformed(payload: String, message: String) {
        do {
            _ = try OnboardingEvent(kind: .custom, json: Data(payload.utf8))
            Issue.record("decoded \(payload)")
        } catch {
            #expect(error.code == .invalidEvent)
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    @Test("Events encode in the specification's shapes, in both styles, and decode back")
    func encode() throws {
        let completed = OnboardingEvent.analytics(
            .screenCompleted(meta: Self.meta, elementId: "profile_form", reply: "success"))
        #expect(
            completed.jsonString()
                == #"{"name":"screen_completed","meta":{"onboarding_id":"onboarding_123","screen_cid":"profile_screen","#
                + #""screen_index":1,"total_screens":4},"params":{"element_id":"profile_form","reply":"success"}}"#)
        #expect(
            completed.jsonString(style: .camelCase)
                == #"{"name":"screenCompleted","meta":{"onboardingId":"onboarding_123","screenClientId":"profile_screen","#
                + #""screenIndex":1,"screensTotal":4},"params":{"elementId":"profile_form","reply":"success"}}"#)
        let custom = OnboardingEvent.custom(OnboardingAction(actionId: "allowNotifications", meta: Self.meta))
        #expect(
            custom.jsonString(includingType: true)
                == #"{"type":"custom","action_id":"allowNotifications","meta":{"onboarding_id":"onboarding_123","#
                + #""screen_cid":"profile_screen","screen_index":1,"total_screens":4}}"#)
        for (kind, payload, _) in Self.examples {
            let event = try OnboardingEvent(kind: kind, json: Data(payload.utf8))
            for style in OnboardingKeyStyle.allCases {
                #expect(try OnboardingEvent(kind: kind, json: Data(event.jsonString(style: style).utf8)) == event)
                #expect(
                    try OnboardingEvent(json: Data(event.jsonString(style: style, includingType: true).utf8)) == event)
            }
        }
    }
}
