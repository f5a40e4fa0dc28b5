import StoreModels

/// An analytics event of an onboarding.
///
/// JSON: `{"name": "screen_completed", "meta": {...}, "params": {"element_id": "profile_form", "reply": "success"}}`;
/// names and keys arrive in camelCase (`screenCompleted`, `elementId`) or snake_case, and both decode.
public enum OnboardingAnalyticsEvent: Sendable, Hashable {
    /// The onboarding loaded.
    case onboardingStarted(meta: OnboardingMeta)
    /// A screen was shown.
    case screenPresented(meta: OnboardingMeta)
    /// The user left a screen, with the element that completed it and the user's reply when known.
    case screenCompleted(meta: OnboardingMeta, elementId: String?, reply: String?)
    /// The second screen was shown.
    case secondScreenPresented(meta: OnboardingMeta)
    /// An e-mail address was entered.
    case userEmailCollected(meta: OnboardingMeta)
    /// The screen with identifier `final` was reached.
    case onboardingCompleted(meta: OnboardingMeta)
    /// Any other event, kept with its name, meta and parameters.
    case unknown(name: String, meta: OnboardingMeta, params: [String: JSONValue])

    /// The known event names, in camelCase.
    public static let knownNames = [
        "onboardingStarted", "screenPresented", "screenCompleted", "secondScreenPresented", "userEmailCollected",
        "onboardingCompleted",
    ]

    /// Where it happened.
    public var meta: OnboardingMeta {
        switch self {
        case .onboardingStarted(let meta), .screenPresented(let meta), .screenCompleted(let meta, _, _),
            .secondScreenPresented(let meta), .userEmailCollected(let meta), .onboardingCompleted(let meta),
            .unknown(_, let meta, _):
            meta
        }
    }

    /// The name in a key style: `screen_completed` or `screenCompleted`; an unknown event's name as it came.
    public func name(_ style: OnboardingKeyStyle = .snakeCase) -> String {
        let camel: String
        switch self {
        case .onboardingStarted: camel = "onboardingStarted"
        case .screenPresented: camel = "screenPresented"
        case .screenCompleted: camel = "screenCompleted"
        case .secondScreenPresented: camel = "secondScreenPresented"
        case .userEmailCollected: camel = "userEmailCollected"
        case .onboardingCompleted: camel = "onboardingCompleted"
        case .unknown(let name, _, _): return name
        }
        return style.key(camel)
    }

    init(_ reader: PayloadReader) throws(PaywallEventsError) {
        let name = try reader.string("name")
        let meta = try OnboardingMeta(reader.object("meta"))
        let params = try reader.optionalObject("params")
        let known = Self.knownNames.first { $0 == name || OnboardingKeyStyle.snake($0) == name }
        switch known {
        case "onboardingStarted": self = .onboardingStarted(meta: meta)
        case "screenPresented": self = .screenPresented(meta: meta)
        case "screenCompleted":
            let elementId = try params?.optionalString("elementId")
            let reply = try params?.optionalString("reply")
            let topElementId = try reader.optionalString("elementId")
            let topReply = try reader.optionalString("reply")
            self = .screenCompleted(meta: meta, elementId: elementId ?? topElementId, reply: reply ?? topReply)
        case "secondScreenPresented": self = .secondScreenPresented(meta: meta)
        case "userEmailCollected": self = .userEmailCollected(meta: meta)
        case "onboardingCompleted": self = .onboardingCompleted(meta: meta)
        default: self = .unknown(name: name, meta: meta, params: params?.members ?? [:])
        }
    }

    func jsonMembers(_ style: OnboardingKeyStyle) -> JSONObjectWriter {
        var members = JSONObjectWriter()
        members.add("name", .string(name(style)))
        members.add("meta", object: meta.jsonObject(style))
        switch self {
        case .screenCompleted(_, let elementId, let reply):
            var params = JSONObjectWriter()
            if let elementId { params.add(style.key("elementId"), .string(elementId)) }
            if let reply { params.add("reply", .string(reply)) }
            if !params.isEmpty { members.add("params", object: params) }
        case .unknown(_, _, let params):
            if !params.isEmpty { members.add("params", .object(params)) }
        default:
            break
        }
        return members
    }
}
