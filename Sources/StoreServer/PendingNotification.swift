#if Server
    /// A notification to make: its type and subtype, the transaction it carries, and the subscription status.
    struct PendingNotification: Sendable, Hashable {
        var type: String
        var subtype: String?
        var transactionID: UInt64?
        var originalID: UInt64?
        var status: Int?
        var consumptionRequestReason: String?
    }
#endif
