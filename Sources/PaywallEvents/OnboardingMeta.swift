import StoreModels

/// Where in an onboarding an event happened; every onboarding event carries it.
///
/// JSON: `{"onboarding_id": "onboarding_123", "screen_cid": "welcome_screen", "screen_index": 0, "total_screens": 4}`
/// or, in camelCase, `{"onboardingId": ..., "screenClientId": ..., "screenIndex": ..., "screensTotal": ...}`.
public struct OnboardingMeta: Sendable, Hashable {
    /// The onboarding's identifier.
    public let onboardingId: String
    /// The client identifier of the screen.
    public let screenClientId: String
    /// The screen's position, from 0.
    public let screenIndex: Int
    /// How many screens the onboarding has.
    public let screensTotal: Int

    /// Creates a meta.
    public init(onboardingId: String, screenClientId: String, screenIndex: Int, screensTotal: Int) {
        self.onboardingId = onboardingId
        self.screenClientId = screenClientId
        self.screenIndex = screenIndex
        self.screensTotal = screensTotal
    }

    init(_ reader: PayloadReader) throws(PaywallEventsError) {
        self.init(
            onboardingId: try reader.string("onboardingId"),
            screenClientId: try reader.string("screenClientId"),
            screenIndex: try reader.int("screenIndex"),
            screensTotal: try reader.int("screensTotal")
        )
    }

    func jsonObject(_ style: OnboardingKeyStyle) -> JSONObjectWriter {
        var object = JSONObjectWriter()
        object.add(style.key("onboardingId"), .string(onboardingId))
        object.add(style.key("screenClientId"), .string(screenClientId))
        object.add(style.key("screenIndex"), screenIndex)
        object.add(style.key("screensTotal"), screensTotal)
        return object
    }
}
