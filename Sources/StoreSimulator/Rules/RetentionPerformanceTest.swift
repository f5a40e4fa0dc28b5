/// A performance test of a developer's Get Retention Message endpoint (Apple's Initiate Performance Test), with each
/// request's outcome: Apple's `PerformanceTestResultResponse` is computed from it.
public struct RetentionPerformanceTest: Sendable, Equatable, Codable {
    /// The test's parameters (Apple's `PerformanceTestConfig`).
    public struct Config: Sendable, Equatable, Codable {
        /// The most requests sent at once.
        public var maxConcurrentRequests: Int
        /// The requests sent.
        public var totalRequests: Int
        /// The longest the test may take, in milliseconds.
        public var totalDuration: Int
        /// The longest a request may take to count as a success, in milliseconds.
        public var responseTimeThreshold: Int
        /// The percentage of successes the test needs to pass.
        public var successRateThreshold: Int

        /// Creates a configuration.
        public init(
            maxConcurrentRequests: Int, totalRequests: Int, totalDuration: Int, responseTimeThreshold: Int,
            successRateThreshold: Int
        ) {
            self.maxConcurrentRequests = maxConcurrentRequests
            self.totalRequests = totalRequests
            self.totalDuration = totalDuration
            self.responseTimeThreshold = responseTimeThreshold
            self.successRateThreshold = successRateThreshold
        }
    }

    /// One request of the test.
    public struct Attempt: Sendable, Equatable, Codable {
        /// Apple's `sendAttemptResult`: `SUCCESS`, `TIMED_OUT`, `INVALID_RESPONSE`, …
        public var result: String
        /// How long the request took, in milliseconds.
        public var milliseconds: Int

        /// Creates an attempt.
        public init(result: String, milliseconds: Int) {
            self.result = result
            self.milliseconds = milliseconds
        }
    }

    /// The test's identifier (Apple's `requestId`).
    public var requestID: String
    /// The URL tested (Apple's `target`).
    public var target: String
    /// The subscription the requests named.
    public var originalTransactionID: UInt64
    /// The parameters.
    public var config: Config
    /// Each request's outcome.
    public var attempts: [Attempt]

    /// Creates a test record.
    public init(
        requestID: String, target: String, originalTransactionID: UInt64, config: Config, attempts: [Attempt]
    ) {
        self.requestID = requestID
        self.target = target
        self.originalTransactionID = originalTransactionID
        self.config = config
        self.attempts = attempts
    }

    /// The percentage of requests that succeeded within the response-time threshold.
    public var successRate: Int {
        guard !attempts.isEmpty else { return 0 }
        let good = attempts.filter { $0.result == "SUCCESS" && $0.milliseconds <= config.responseTimeThreshold }
        return good.count * 100 / attempts.count
    }

    /// Whether the test passed: Apple's `PASS` or `FAIL`.
    public var passed: Bool { successRate >= config.successRateThreshold }

    /// The response time at a percentile (nearest rank), in milliseconds.
    public func responseTime(percentile: Int) -> Int {
        let sorted = attempts.map(\.milliseconds).sorted()
        guard !sorted.isEmpty else { return 0 }
        let rank = max(1, (percentile * sorted.count + 99) / 100)
        return sorted[min(rank, sorted.count) - 1]
    }

    /// The average response time, in milliseconds.
    public var averageResponseTime: Int {
        attempts.isEmpty ? 0 : attempts.map(\.milliseconds).reduce(0, +) / attempts.count
    }

    /// The failures by `sendAttemptResult` (a success slower than the threshold counts as `TIMED_OUT`).
    public var failures: [String: Int] {
        var counts: [String: Int] = [:]
        for attempt in attempts {
            if attempt.result != "SUCCESS" {
                counts[attempt.result, default: 0] += 1
            } else if attempt.milliseconds > config.responseTimeThreshold {
                counts["TIMED_OUT", default: 0] += 1
            }
        }
        return counts
    }
}
