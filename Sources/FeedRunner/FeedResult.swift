/// The verdict of a feed run.
public struct FeedResult: Sendable, Hashable {
    /// The first expectation that failed, or the step that could not be carried out.
    public struct Failure: Sendable, Hashable, CustomStringConvertible {
        /// The 1-based line of the step.
        public let line: Int
        /// The step's text.
        public let step: String
        /// What was expected and what was observed.
        public let message: String

        /// `line N: step: message`.
        public var description: String { "line \(line): \(step): \(message)" }
    }

    /// The feed's name.
    public let feed: String
    /// How many steps ran.
    public let steps: Int
    /// How many expectations were checked (all of them pass when the feed passes).
    public let expectations: Int
    /// The first failure; `nil` when the feed passed.
    public let failure: Failure?
    /// How much store time the feed simulated, in seconds.
    public let simulatedSeconds: Double
    /// The current user's app receipt at the end of the run (PKCS#7 DER), when the run was asked for it.
    public let receipt: [UInt8]?
    /// Every StoreKit 2 JWS the store signs at the end of the run, by file name, when the run was asked for them:
    /// `transaction-<id>-<product>.jws` for each completed transaction, `renewal-info-<original id>-<group>.jws`
    /// for each subscription, `app-transaction-<account>.jws` for each account. Empty otherwise.
    public var signedData: [String: String] = [:]

    /// Whether every expectation held.
    public var passed: Bool { failure == nil }
}
