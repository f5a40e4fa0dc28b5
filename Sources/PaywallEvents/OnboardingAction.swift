import StoreModels

/// A button action of an onboarding: a custom action, a close action or an open-paywall action.
///
/// JSON: `{"action_id": "allowNotifications", "meta": {...}}` or `{"actionId": ..., "meta": {...}}`.
public struct OnboardingAction: Sendable, Hashable {
    /// The action identifier set in the builder. For an open-paywall action it is, by convention, the paywall's
    /// placement identifier.
    public let actionId: String
    /// Where it happened.
    public let meta: OnboardingMeta

    /// Creates an action.
    public init(actionId: String, meta: OnboardingMeta) {
        self.actionId = actionId
        self.meta = meta
    }

    init(_ reader: PayloadReader) throws(PaywallEventsError) {
        self.init(actionId: try reader.string("actionId"), meta: try OnboardingMeta(reader.object("meta")))
    }

    func jsonMembers(_ style: OnboardingKeyStyle) -> JSONObjectWriter {
        var object = JSONObjectWriter()
        object.add(style.key("actionId"), .string(actionId))
        object.add("meta", object: meta.jsonObject(style))
        return object
    }
}
