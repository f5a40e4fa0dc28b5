/// A failed store operation: a StoreKit error code and a message for people.
public struct StoreFailure: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The StoreKit error code.
    public let code: StoreErrorCode
    /// What went wrong, for people; not stable.
    public let message: String

    /// Creates a failure.
    public init(_ code: StoreErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `SKErrorDomain code N (name): message`.
    public var description: String { "SKErrorDomain code \(code.rawValue) (\(code.name)): \(message)" }
}
