/// The two key styles onboarding payloads arrive in; both decode, and events encode in either.
public enum OnboardingKeyStyle: String, Sendable, Hashable, CaseIterable {
    /// `actionId`, `onboardingId`, `screenClientId`, `screenIndex`, `screensTotal`, `elementId`; event names such as
    /// `screenCompleted`.
    case camelCase
    /// `action_id`, `onboarding_id`, `screen_cid`, `screen_index`, `total_screens`, `element_id`; event names such as
    /// `screen_completed`.
    case snakeCase

    /// A key in this style, from its camelCase spelling.
    func key(_ camel: String) -> String {
        self == .camelCase ? camel : Self.snake(camel)
    }

    /// The snake_case spelling of a camelCase key or name.
    static func snake(_ camel: String) -> String {
        if let special = specialKeys[camel] { return special }
        var out = ""
        for character in camel {
            if character.isUppercase {
                out += "_" + character.lowercased()
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// Keys whose snake_case spelling is not the mechanical one.
    private static let specialKeys = ["screenClientId": "screen_cid", "screensTotal": "total_screens"]
}
