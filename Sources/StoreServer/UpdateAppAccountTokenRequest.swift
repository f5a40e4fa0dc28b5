#if Server
    /// The body of Set App Account Token.
    struct UpdateAppAccountTokenRequest: Decodable {
        var appAccountToken: String?
    }
#endif
