public import Foundation
public import Purchases
import Synchronization

/// A web paywall the user was sent to: its URL, and whether the web purchase turned into access once the user came
/// back.
///
/// ``PresentationContext/openWebPaywall(for:in:)-(PaywallProduct,_)`` creates it in ``Status-swift.enum/inBrowser``;
/// ``PresentationContext/userDidReturnToApp()`` starts polling the profile, which ends in
/// ``Status-swift.enum/accessGranted(_:)`` or ``Status-swift.enum/timedOut(_:)``.
public final class WebPaywallVisit: Sendable {
    /// Where the visit stands.
    public enum Status: Sendable, Hashable {
        /// The user is on the web page.
        case inBrowser
        /// The user came back; the profile is being polled.
        case polling
        /// The profile has the access level: the web purchase arrived.
        case accessGranted(Profile)
        /// Polling gave up; the last profile seen.
        case timedOut(Profile)

        /// Whether polling ended.
        public var isFinal: Bool {
            switch self {
            case .inBrowser, .polling: false
            case .accessGranted, .timedOut: true
            }
        }
    }

    private struct State {
        var status = Status.inBrowser
        var polls = 0
        var pollError: PurchasesError?
        var returnedAt: Date?
        var endedAt: Date?
        var observers: [@Sendable (Status) -> Void] = []
    }

    /// The URL opened.
    public let url: URL
    /// Where it opened.
    public let presentation: WebPresentation
    /// The access levels that mean the purchase arrived (any of them); empty means any active access level.
    public let accessLevels: Set<String>
    private let state = Mutex(State())

    init(url: URL, presentation: WebPresentation, accessLevels: Set<String>) {
        self.url = url
        self.presentation = presentation
        self.accessLevels = accessLevels
    }

    /// Where the visit stands.
    public var status: Status { state.withLock { $0.status } }
    /// How many times the profile was polled.
    public var polls: Int { state.withLock { $0.polls } }
    /// Why the last poll could not read the profile (the receipt is missing or does not verify); `nil` when it could.
    /// Polling goes on after such a poll, and a visit that times out after one ends with the last good profile.
    public var pollError: PurchasesError? { state.withLock { $0.pollError } }
    /// When the user came back (store time).
    public var returnedAt: Date? { state.withLock { $0.returnedAt } }
    /// When polling ended (store time).
    public var endedAt: Date? { state.withLock { $0.endedAt } }

    /// Calls `body` once, when polling ends (at once if it has ended).
    public func onEnd(_ body: @escaping @Sendable (Status) -> Void) {
        let ended = state.withLock { state -> Status? in
            guard state.status.isFinal else {
                state.observers.append(body)
                return nil
            }
            return state.status
        }
        if let ended { body(ended) }
    }

    /// Whether a profile shows the purchase arrived.
    func isGranted(by profile: Profile) -> Bool {
        accessLevels.isEmpty
            ? profile.accessLevels.values.contains(where: \.isActive) : accessLevels.contains(where: profile.isActive)
    }

    /// Marks the return; `false` if the user had already come back.
    func returned(at date: Date) -> Bool {
        state.withLock { state in
            guard case .inBrowser = state.status else { return false }
            state.status = .polling
            state.returnedAt = date
            return true
        }
    }

    func polled(failing error: PurchasesError?) {
        state.withLock { state in
            state.polls += 1
            state.pollError = error
        }
    }

    func end(_ status: Status, at date: Date) {
        let observers = state.withLock { state -> [@Sendable (Status) -> Void] in
            state.status = status
            state.endedAt = date
            defer { state.observers.removeAll() }
            return state.observers
        }
        for observer in observers { observer(status) }
    }
}
