public import Foundation

/// How the profile is polled after the user comes back from a web paywall: at short intervals of store time, until
/// the access level appears or the timeout passes.
public struct ProfilePollingPolicy: Sendable, Hashable {
    /// Seconds of store time between two polls.
    public let interval: TimeInterval
    /// Seconds of store time after which polling gives up.
    public let timeout: TimeInterval

    /// Creates a policy; the interval is at least 0.1 second and the timeout at least 0.
    public init(interval: TimeInterval, timeout: TimeInterval) {
        self.interval = max(0.1, interval)
        self.timeout = max(0, timeout)
    }

    /// Every second, for up to a minute.
    public static let `default` = ProfilePollingPolicy(interval: 1, timeout: 60)
}
