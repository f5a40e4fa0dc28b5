#if Server
    /// The body of Extend a Subscription Renewal Date.
    struct ExtendRenewalDateRequest: Decodable {
        var extendByDays: Int?
        var extendReasonCode: Int?
        var requestIdentifier: String?
    }
#endif
