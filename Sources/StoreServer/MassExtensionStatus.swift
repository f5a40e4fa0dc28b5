#if Server
    /// The answer of Get Status of Subscription Renewal Date Extensions.
    struct MassExtensionStatus: Codable, Sendable {
        var requestIdentifier: String
        var complete: Bool
        var completeDate: Int64
        var succeededCount: Int64
        var failedCount: Int64
    }
#endif
