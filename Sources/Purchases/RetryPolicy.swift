/// How often a failed products request is tried again before its callers hear the failure.
public struct RetryPolicy: Sendable, Hashable {
    /// How many attempts in all, the first included; at least 1.
    public let maxAttempts: Int

    /// Creates a policy.
    public init(maxAttempts: Int) {
        self.maxAttempts = max(1, maxAttempts)
    }

    /// One attempt, no retry.
    public static let none = RetryPolicy(maxAttempts: 1)
}
