public import Foundation
import StoreModels

/// What an onboarding reports: button actions, the end of loading, errors and analytics.
///
/// Payloads arrive in camelCase or snake_case and both decode (``init(kind:json:)``); an unknown analytics event keeps
/// its name, meta and parameters. ``jsonString(style:includingType:)`` writes the payload back in either style.
public enum OnboardingEvent: Sendable, Hashable {
    /// What kind of message a payload is.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A custom action: `{"action_id": ..., "meta": ...}`.
        case custom
        /// A close action: `{"action_id": ..., "meta": ...}`.
        case close
        /// An open-paywall action: `{"action_id": PLACEMENT_ID, "meta": ...}`.
        case openPaywall = "open_paywall"
        /// The onboarding finished loading: `{"meta": ...}`.
        case didFinishLoading = "did_finish_loading"
        /// An error: `{"code": "rendering_failed", "message": ...}`.
        case error
        /// An analytics event: `{"name": ..., "meta": ..., "params": ...}`.
        case analytics

        /// The kind named in either style: `open_paywall` or `openPaywall`.
        public init?(name: String) {
            guard let kind = Self.allCases.first(where: { $0.rawValue == name || $0.camelName == name }) else {
                return nil
            }
            self = kind
        }

        /// The camelCase name: `openPaywall`.
        public var camelName: String {
            switch self {
            case .openPaywall: "openPaywall"
            case .didFinishLoading: "didFinishLoading"
            default: rawValue
            }
        }
    }

    /// A custom action, such as `allowNotifications`.
    case custom(OnboardingAction)
    /// The user closed the onboarding.
    case close(OnboardingAction)
    /// The user asked for a paywall; the action identifier is the paywall's placement identifier.
    case openPaywall(OnboardingAction)
    /// The onboarding finished loading.
    case didFinishLoading(OnboardingMeta)
    /// The onboarding failed.
    case error(PaywallEventsError)
    /// An analytics event.
    case analytics(OnboardingAnalyticsEvent)

    /// The kind of message.
    public var kind: Kind {
        switch self {
        case .custom: .custom
        case .close: .close
        case .openPaywall: .openPaywall
        case .didFinishLoading: .didFinishLoading
        case .error: .error
        case .analytics: .analytics
        }
    }

    /// Decodes a payload of a known kind, in either key style.
    ///
    /// - Throws: ``PaywallEventsError`` `invalidEvent` naming the missing or malformed field.
    public init(kind: Kind, json data: Data) throws(PaywallEventsError) {
        try self.init(kind: kind, value: JSONValue(parsing: data))
    }

    /// Decodes a message whose `type` member names its kind (`custom`, `close`, `open_paywall`, `did_finish_loading`,
    /// `error`, `analytics`, in either style). Without `type`, a payload with a `name` is an analytics event and one
    /// with only `meta` is the end of loading.
    ///
    /// - Throws: ``PaywallEventsError`` `invalidEvent` naming what is wrong.
    public init(json data: Data) throws(PaywallEventsError) {
        let value = try JSONValue(parsing: data)
        let reader = try PayloadReader(value, path: "", event: "message")
        if let type = try reader.optionalString("type") {
            guard let kind = Kind(name: type) else {
                throw PaywallEventsError(
                    .invalidEvent,
                    "onboarding message: unknown type \"\(type)\"; use "
                        + Kind.allCases.map(\.rawValue).joined(separator: ", ")
                )
            }
            try self.init(kind: kind, value: value)
        } else if reader.value("name") != nil {
            try self.init(kind: .analytics, value: value)
        } else if reader.value("actionId") == nil, reader.value("meta") != nil {
            try self.init(kind: .didFinishLoading, value: value)
        } else {
            throw PaywallEventsError(
                .invalidEvent,
                "onboarding message: a payload with an action id needs a \"type\" (custom, close or open_paywall)"
            )
        }
    }

    /// Decodes a parsed payload of a known kind.
    ///
    /// - Throws: ``PaywallEventsError`` `invalidEvent` naming the missing or malformed field.
    public init(kind: Kind, value: JSONValue) throws(PaywallEventsError) {
        let reader = try PayloadReader(value, path: "", event: kind.rawValue)
        switch kind {
        case .custom: self = .custom(try OnboardingAction(reader))
        case .close: self = .close(try OnboardingAction(reader))
        case .openPaywall: self = .openPaywall(try OnboardingAction(reader))
        case .didFinishLoading: self = .didFinishLoading(try OnboardingMeta(reader.object("meta")))
        case .analytics: self = .analytics(try OnboardingAnalyticsEvent(reader))
        case .error:
            let code: PaywallEventsError.Code
            switch reader.value("code") {
            case nil:
                code = .renderingFailed
            case .string(let name)?:
                guard let known = PaywallEventsError.Code(name: name) else {
                    throw PaywallEventsError(
                        .invalidEvent,
                        "onboarding event error: code \"\(name)\" is unknown; use a name such as rendering_failed "
                            + "or a number such as 4105"
                    )
                }
                code = known
            case let number?:
                guard let raw = number.intValue else {
                    throw PaywallEventsError(
                        .invalidEvent, "onboarding event error: code must be a name or a whole number, not \(number)")
                }
                code = PaywallEventsError.Code(rawValue: raw)
            }
            var details: [String: String] = [:]
            if let object = try reader.optionalObject("details") {
                for (key, value) in object.members { details[key] = value.stringValue ?? value.jsonString }
            }
            self = .error(
                PaywallEventsError(
                    code, try reader.optionalString("message") ?? "the onboarding failed", details: details))
        }
    }

    /// The payload in a key style, keys in the specification's order; with `includingType`, a `type` member first
    /// (what ``init(json:)`` reads).
    public func jsonString(style: OnboardingKeyStyle = .snakeCase, includingType: Bool = false) -> String {
        var object = JSONObjectWriter()
        if includingType {
            object.add("type", .string(style == .snakeCase ? kind.rawValue : kind.camelName))
        }
        switch self {
        case .custom(let action), .close(let action), .openPaywall(let action):
            object.add(contentsOf: action.jsonMembers(style))
        case .didFinishLoading(let meta):
            object.add("meta", object: meta.jsonObject(style))
        case .error(let error):
            object.add(contentsOf: error.jsonObject)
        case .analytics(let event):
            object.add(contentsOf: event.jsonMembers(style))
        }
        return object.jsonString
    }
}
