#if Server
    /// An App Store Server API endpoint the server answers, named as Apple's documentation names it, with the path
    /// parameters it takes.
    enum APIEndpoint: Sendable, Hashable, CaseIterable {
        /// Get Transaction Info: `GET /inApps/v1/transactions/{transactionId}`.
        case getTransactionInfo
        /// Get App Transaction Info: `GET /inApps/v1/transactions/appTransactions/{transactionId}`.
        case getAppTransactionInfo
        /// Get Transaction History: `GET /inApps/v2/history/{transactionId}`.
        case getTransactionHistory
        /// Get Transaction History V1: `GET /inApps/v1/history/{transactionId}`.
        case getTransactionHistoryV1
        /// Get All Subscription Statuses: `GET /inApps/v1/subscriptions/{transactionId}`.
        case getAllSubscriptionStatuses
        /// Get Refund History: `GET /inApps/v2/refund/lookup/{transactionId}`.
        case getRefundHistory
        /// Look Up Order ID: `GET /inApps/v1/lookup/{orderId}`.
        case lookUpOrderID
        /// Set App Account Token: `PUT /inApps/v1/transactions/{originalTransactionId}/appAccountToken`.
        case setAppAccountToken
        /// Finish Transaction: `POST /inApps/v1/transactions/{transactionId}/finish`.
        case finishTransaction
        /// Send Consumption Information: `PUT /inApps/v2/transactions/consumption/{transactionId}`.
        case sendConsumptionInformation
        /// Extend a Subscription Renewal Date: `PUT /inApps/v1/subscriptions/extend/{originalTransactionId}`.
        case extendSubscriptionRenewalDate
        /// Extend Subscription Renewal Dates for All Active Subscribers: `POST /inApps/v1/subscriptions/extend/mass`.
        case extendRenewalDatesForAllActiveSubscribers
        /// Get Status of Subscription Renewal Date Extensions:
        /// `GET /inApps/v1/subscriptions/extend/mass/{productId}/{requestIdentifier}`.
        case getStatusOfSubscriptionRenewalDateExtensions
        /// Request a Test Notification: `POST /inApps/v1/notifications/test`.
        case requestTestNotification
        /// Get Test Notification Status: `GET /inApps/v1/notifications/test/{testNotificationToken}`.
        case getTestNotificationStatus
        /// Get Notification History: `POST /inApps/v1/notifications/history`.
        case getNotificationHistory
        /// Send Consumption Information V1: `PUT /inApps/v1/transactions/consumption/{transactionId}`.
        case sendConsumptionInformationV1
        /// Get Refund History V1: `GET /inApps/v1/refund/lookup/{originalTransactionId}`.
        case getRefundHistoryV1

        /// The endpoint a method and the path's segments after `/inApps` name, or nil for none.
        init?(method: String, route: [String]) {
            switch (method, route.count) {
            case ("PUT", 4) where route[0] == "v1" && route[1] == "transactions" && route[2] == "consumption":
                self = .sendConsumptionInformationV1
            case ("GET", 4) where route[0] == "v1" && route[1] == "refund" && route[2] == "lookup":
                self = .getRefundHistoryV1
            case ("GET", 3) where route[0] == "v1" && route[1] == "transactions":
                self = .getTransactionInfo
            case ("GET", 4) where route[0] == "v1" && route[1] == "transactions" && route[2] == "appTransactions":
                self = .getAppTransactionInfo
            case ("GET", 3) where route[0] == "v2" && route[1] == "history":
                self = .getTransactionHistory
            case ("GET", 3) where route[0] == "v1" && route[1] == "history":
                self = .getTransactionHistoryV1
            case ("GET", 3) where route[0] == "v1" && route[1] == "subscriptions":
                self = .getAllSubscriptionStatuses
            case ("GET", 4) where route[0] == "v2" && route[1] == "refund" && route[2] == "lookup":
                self = .getRefundHistory
            case ("GET", 3) where route[0] == "v1" && route[1] == "lookup":
                self = .lookUpOrderID
            case ("PUT", 4) where route[0] == "v1" && route[1] == "transactions" && route[3] == "appAccountToken":
                self = .setAppAccountToken
            case ("POST", 4) where route[0] == "v1" && route[1] == "transactions" && route[3] == "finish":
                self = .finishTransaction
            case ("PUT", 4) where route[0] == "v2" && route[1] == "transactions" && route[2] == "consumption":
                self = .sendConsumptionInformation
            case ("PUT", 4) where route[0] == "v1" && route[1] == "subscriptions" && route[2] == "extend":
                self = .extendSubscriptionRenewalDate
            case ("POST", 4)
            where route[0] == "v1" && route[1] == "subscriptions" && route[2] == "extend" && route[3] == "mass":
                self = .extendRenewalDatesForAllActiveSubscribers
            case ("GET", 6)
            where route[0] == "v1" && route[1] == "subscriptions" && route[2] == "extend" && route[3] == "mass":
                self = .getStatusOfSubscriptionRenewalDateExtensions
            case ("POST", 3) where route[0] == "v1" && route[1] == "notifications" && route[2] == "test":
                self = .requestTestNotification
            case ("GET", 4) where route[0] == "v1" && route[1] == "notifications" && route[2] == "test":
                self = .getTestNotificationStatus
            case ("POST", 3) where route[0] == "v1" && route[1] == "notifications" && route[2] == "history":
                self = .getNotificationHistory
            default:
                return nil
            }
        }

        /// Apple's production rate limit, in requests per second (AD-API *Identifying rate limits*), or nil where
        /// Apple lists none (Get Status of Subscription Renewal Date Extensions).
        var requestsPerSecond: Int? {
            switch self {
            case .getTransactionInfo, .getAppTransactionInfo, .getTransactionHistory, .getTransactionHistoryV1,
                .getAllSubscriptionStatuses, .sendConsumptionInformation, .getNotificationHistory, .finishTransaction:
                return 50
            case .extendSubscriptionRenewalDate, .setAppAccountToken:
                return 20
            case .lookUpOrderID, .getRefundHistory:
                return 10
            case .extendRenewalDatesForAllActiveSubscribers, .requestTestNotification, .getTestNotificationStatus:
                return 1
            case .getStatusOfSubscriptionRenewalDateExtensions:
                return nil
            case .sendConsumptionInformationV1:
                return 50
            case .getRefundHistoryV1:
                return 10
            }
        }
    }
#endif
