public import Foundation

/// The app around presented screens: it opens URLs and learns what is on screen.
///
/// The default `.openURL` action, and web paywalls, ask the host to open URLs. `SimulatedHost` (module
/// `PaywallEventsTest`) records everything for tests.
public protocol PresentationHost: AnyObject, Sendable {
    /// Opens a URL in a browser; returns `false` when it cannot.
    func open(_ url: URL, in presentation: WebPresentation) -> Bool
    /// A screen was put on screen.
    func didPresent(_ screen: PresentedScreen)
    /// A screen left the screen.
    func didDismiss(_ screen: PresentedScreen)
}

/// A controller as the host sees it.
public struct PresentedScreen: Sendable, Hashable, CustomStringConvertible {
    /// What kind of controller it is.
    public enum Kind: String, Sendable, Hashable {
        /// A multi-screen flow.
        case flow
        /// A single-screen paywall.
        case paywall
        /// An onboarding.
        case onboarding
    }

    /// What kind of controller it is.
    public let kind: Kind
    /// The paywall's placement or the onboarding's identifier.
    public let id: String

    /// Creates a description of a screen.
    public init(kind: Kind, id: String) {
        self.kind = kind
        self.id = id
    }

    /// `flow:premium`, `onboarding:welcome`.
    public var description: String { "\(kind.rawValue):\(id)" }
}
