/// The failure of a wait that ran past its bound.
public struct WaitTimedOut: Error, CustomStringConvertible {
    /// What was waited for.
    public let what: String
    /// The bound.
    public let limit: Duration

    /// Says what did not happen in time.
    public var description: String { "gave up waiting for \(what) after \(limit)" }
}
