/// A broken rule, with what was seen.
public struct ConformanceViolation: Sendable, Hashable, CustomStringConvertible {
    /// The rule.
    public let rule: ConformanceRule
    /// What happened, for people.
    public let message: String
    /// The position in the checker's ``ConformanceChecker/entries`` where it was seen; `nil` for rules checked at the
    /// end of the session.
    public let entryIndex: Int?

    /// Creates a violation.
    public init(rule: ConformanceRule, message: String, entryIndex: Int?) {
        self.rule = rule
        self.message = message
        self.entryIndex = entryIndex
    }

    /// `rule: message`.
    public var description: String { "\(rule.rawValue): \(message)" }
}
