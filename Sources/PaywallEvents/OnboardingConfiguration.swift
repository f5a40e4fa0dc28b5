/// What an onboarding shows: its identifier and its screens' client identifiers, in order. Reaching the screen with
/// identifier `final` completes the onboarding.
public struct OnboardingConfiguration: Sendable, Hashable {
    /// The onboarding's identifier.
    public let onboardingId: String
    /// The screens' client identifiers, in order; never empty.
    public let screens: [String]

    /// Creates a configuration; without screens it has one, `final`.
    public init(onboardingId: String, screens: [String]) {
        self.onboardingId = onboardingId
        self.screens = screens.isEmpty ? ["final"] : screens
    }
}
