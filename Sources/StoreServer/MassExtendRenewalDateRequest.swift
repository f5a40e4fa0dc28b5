#if Server
    /// The body of Extend Subscription Renewal Dates for All Active Subscribers.
    struct MassExtendRenewalDateRequest: Decodable {
        var extendByDays: Int?
        var extendReasonCode: Int?
        var requestIdentifier: String?
        var productId: String?
        var storefrontCountryCodes: [String]?
    }
#endif
