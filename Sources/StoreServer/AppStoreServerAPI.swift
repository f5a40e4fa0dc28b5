#if Server
    import Foundation
    import ReceiptKit
    import StoreModels
    import StoreSimulator

    /// The App Store Server API over a simulated store: Apple's paths under `/inApps`, Apple's JSON, Apple's errors.
    ///
    /// Every request passes the ``BearerTokenVerifier`` first, then the rate limits when they are on (an authorized
    /// request to an endpoint counts, whatever it answers). Transactions are the store's purchased records; a
    /// customer is the store account of the transaction named in the path.
    struct AppStoreServerAPI: Sendable {
        let store: SimulatedStore
        let signed: SignedStoreData
        let verifier: BearerTokenVerifier
        let notifications: NotificationSender
        let driver: StoreDriver
        let environment: JWSEnvironment
        let bundleID: String
        /// Counts requests against Apple's rate limits; nil enforces none.
        let limiter: RateLimiter?
        /// Sends Retention Messaging's real-time requests and performance tests.
        let realtime: RetentionRealtime

        /// How many items a page holds.
        static let pageSize = 20

        /// Answers a request under `/inApps/`.
        func handle(_ request: HTTPRequest) -> HTTPResponse {
            switch verifier.check(authorization: request.header("Authorization")) {
            case .authorized:
                break
            case .unauthorized(let reason):
                var response = HTTPResponse.text(401, "Unauthenticated\n")
                response.headers.append(HTTPHeader(name: "X-OpenStoreKit-Auth-Failure", value: reason))
                return response
            case .refused(let error):
                return error.response
            }
            do {
                return try route(request)
            } catch {
                return error.response
            }
        }

        private func route(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
            let parts = APIRequest.segments(of: request.path).dropFirst()
            // parts[0] == "inApps"
            let route = Array(parts.dropFirst())
            if route.count >= 2, route[0] == "v1", route[1] == "messaging" {
                return try messaging(request, route: route)
            }
            guard let endpoint = APIEndpoint(method: request.method, route: route) else {
                return .text(404, "Not Found\n")
            }
            if let limiter, let next = limiter.admit(endpoint, at: JWSDate(store.now).millisecondsSince1970) {
                var response = APIError.rateLimitExceeded.response
                response.headers.append(HTTPHeader(name: "Retry-After", value: String(next)))
                return response
            }
            switch endpoint {
            case .getTransactionInfo:
                return try transactionInfo(route[2])
            case .getAppTransactionInfo:
                return try appTransactionInfo(route[3])
            case .getTransactionHistory, .getTransactionHistoryV1:
                return try history(route[2], query: request.query, version: route[0])
            case .getAllSubscriptionStatuses:
                return try allSubscriptionStatuses(route[2], query: request.query)
            case .getRefundHistory:
                return try refundHistory(route[3], query: request.query)
            case .lookUpOrderID:
                return try lookUpOrder(route[2])
            case .setAppAccountToken:
                return try setAppAccountToken(route[2], body: request.body)
            case .finishTransaction:
                return try finishTransaction(route[2])
            case .sendConsumptionInformation:
                return try consumption(route[3], body: request.body)
            case .extendSubscriptionRenewalDate:
                return try extendRenewalDate(route[3], body: request.body)
            case .extendRenewalDatesForAllActiveSubscribers:
                return try massExtend(body: request.body)
            case .getStatusOfSubscriptionRenewalDateExtensions:
                return try massExtensionStatus(productID: route[4], requestIdentifier: route[5])
            case .requestTestNotification:
                return try requestTestNotification()
            case .getTestNotificationStatus:
                return try testNotificationStatus(route[3])
            case .getNotificationHistory:
                return try notificationHistory(body: request.body, token: request.query["paginationToken"]?.first)
            case .sendConsumptionInformationV1:
                return try consumptionV1(route[3], body: request.body)
            case .getRefundHistoryV1:
                return try refundLookupV1(route[3])
            }
        }

        // MARK: Customers

        /// The customer whose purchased record a path's transaction id names, with the parts a request needs, read from
        /// the store at once (``StoreSimulator/SimulatedStore/customer(ofTransaction:including:)``).
        func customer(of text: String, including parts: StoreCustomer.Parts = []) throws(APIError) -> StoreCustomer {
            guard let id = APIRequest.transactionID(text) else { throw .invalidTransactionId }
            guard let customer = store.customer(ofTransaction: id, including: parts),
                customer.transaction.state == .purchased
            else { throw .transactionIdNotFound }
            return customer
        }

        /// The purchased record named by a path's transaction id.
        func record(of text: String) throws(APIError) -> TransactionRecord {
            try customer(of: text).transaction
        }

        // MARK: Get Transaction Info

        private func transactionInfo(_ text: String) throws(APIError) -> HTTPResponse {
            let customer = try customer(of: text)
            return .json(
                200,
                APIRequest.object(
                    key: "signedTransactionInfo", string: try signed.transaction(customer.transaction, in: customer)))
        }

        // MARK: Get App Transaction Info

        /// The path names any transaction of the customer, or their app transaction identifier (`appTransactionId`).
        private func appTransactionInfo(_ text: String) throws(APIError) -> HTTPResponse {
            let account: String
            do {
                account = try record(of: text).account
            } catch {
                guard let owner = store.account(ofAppTransactionID: text) else { throw error }
                account = owner
            }
            struct Response: Encodable { let signedAppTransactionInfo: String }
            return APIRequest.json(Response(signedAppTransactionInfo: try signed.appTransaction(account: account)))
        }

        // MARK: Look Up Order ID

        /// A simulated order id is the transaction id of the order's purchase.
        private func lookUpOrder(_ orderID: String) throws(APIError) -> HTTPResponse {
            struct Response: Encodable {
                let status: Int
                let signedTransactions: [String]?
            }
            guard let id = APIRequest.transactionID(orderID), let customer = store.customer(ofTransaction: id),
                customer.transaction.state == .purchased
            else {
                return APIRequest.json(Response(status: 1, signedTransactions: nil))
            }
            return APIRequest.json(
                Response(status: 0, signedTransactions: [try signed.transaction(customer.transaction, in: customer)]))
        }
    }
#endif
