public import Foundation
public import PaywallEvents
import Synchronization

/// A host for tests and feeds: it records the URLs it is asked to open and what is on screen, and can be told that
/// the browser cannot open anything.
public final class SimulatedHost: PresentationHost {
    /// A URL the host was asked to open.
    public struct OpenedURL: Sendable, Hashable {
        /// The URL.
        public let url: URL
        /// Where it was asked to open.
        public let presentation: WebPresentation
        /// Whether it opened.
        public let opened: Bool

        /// Creates a record.
        public init(url: URL, presentation: WebPresentation, opened: Bool) {
            self.url = url
            self.presentation = presentation
            self.opened = opened
        }
    }

    private struct State {
        var opened: [OpenedURL] = []
        var onScreen: [PresentedScreen] = []
        var history: [String] = []
        var browserWorks = true
    }

    private let state = Mutex(State())

    /// Creates a host whose browser works.
    public init() {}

    /// Whether the browser opens URLs; set to `false` to make opening fail.
    public var browserWorks: Bool {
        get { state.withLock { $0.browserWorks } }
        set { state.withLock { $0.browserWorks = newValue } }
    }

    /// Every URL the host was asked to open, in order.
    public var openedURLs: [OpenedURL] { state.withLock { $0.opened } }

    /// What is on screen, bottom first.
    public var onScreen: [PresentedScreen] { state.withLock { $0.onScreen } }

    /// What happened, in order: `present flow:premium`, `dismiss onboarding:welcome`, `open https://...`.
    public var history: [String] { state.withLock { $0.history } }

    /// Records the URL; opens it when the browser works.
    public func open(_ url: URL, in presentation: WebPresentation) -> Bool {
        state.withLock { state in
            state.opened.append(OpenedURL(url: url, presentation: presentation, opened: state.browserWorks))
            state.history.append("open \(url.absoluteString) in \(presentation.rawValue)")
            return state.browserWorks
        }
    }

    /// Records that a screen is on screen.
    public func didPresent(_ screen: PresentedScreen) {
        state.withLock { state in
            state.onScreen.append(screen)
            state.history.append("present \(screen)")
        }
    }

    /// Records that a screen left.
    public func didDismiss(_ screen: PresentedScreen) {
        state.withLock { state in
            if let index = state.onScreen.lastIndex(of: screen) { state.onScreen.remove(at: index) }
            state.history.append("dismiss \(screen)")
        }
    }
}
