#if Server
    /// Which of Apple's App Store Server API rate limits a ``StoreServer`` enforces (`serve --rate-limits`); none
    /// unless asked for.
    ///
    /// Apple limits each endpoint per app, in requests per second enforced per hour (AD-API *Identifying rate
    /// limits*): Get Transaction Info, Get App Transaction Info, Get Transaction History (v2 and v1), Get All
    /// Subscription Statuses, Send Consumption Information, Get Notification History and Finish Transaction 50; Extend
    /// a Subscription Renewal Date and Set App Account Token 20; Look Up Order ID and Get Refund History 10; Extend
    /// Subscription Renewal Dates for All Active Subscribers, Request a Test Notification and Get Test Notification
    /// Status 1. The server counts them as that many per second times 3600 per hour of the store's clock, and answers
    /// the request past it with 429 `RateLimitExceededError` and a `Retry-After` header.
    public enum RateLimits: String, Sendable, Hashable, CaseIterable {
        /// Apple's production limits.
        case apple
        /// The sandbox's limits: 10 % of production, as Apple documents.
        case sandbox

        /// How many requests an endpoint takes in an hour, or nil when it is not limited.
        func requestsPerHour(_ endpoint: APIEndpoint) -> Int? {
            guard let perSecond = endpoint.requestsPerSecond else { return nil }
            switch self {
            case .apple: return perSecond * 3600
            case .sandbox: return perSecond * 360
            }
        }
    }
#endif
