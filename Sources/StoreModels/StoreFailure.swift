/// A failed store operation: a StoreKit error code and a message for people.
public struct StoreFailure: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The StoreKit error code.
    public let code: StoreErrorCode
    /// What went wrong, for people; not stable.
    public let message: String
    /// The exact error, in the words of the face that set the failure (StoreKit 2 writes `purchase.productUnavailable`,
    /// `storeKit.networkError.-1009`), so that the face reports it as it was set; `nil` for a failure its ``code`` says
    /// all of.
    public let kind: String?

    /// Creates a failure.
    public init(_ code: StoreErrorCode, _ message: String, kind: String? = nil) {
        self.code = code
        self.message = message
        self.kind = kind
    }

    /// `SKErrorDomain code N (name): message`.
    public var description: String { "SKErrorDomain code \(code.rawValue) (\(code.name)): \(message)" }
}
