#if Server
    import Foundation
    import ReceiptKit
    import StoreModels
    import StoreSimulator

    extension AppStoreServerAPI {
        /// The notification types Apple defines.
        static let notificationTypes: [String: Set<String>] = [
            "SUBSCRIBED": ["INITIAL_BUY", "RESUBSCRIBE"], "DID_RENEW": ["BILLING_RECOVERY"],
            "DID_FAIL_TO_RENEW": ["GRACE_PERIOD"], "GRACE_PERIOD_EXPIRED": [],
            "EXPIRED": ["VOLUNTARY", "BILLING_RETRY", "PRICE_INCREASE", "PRODUCT_NOT_FOR_SALE"],
            "DID_CHANGE_RENEWAL_PREF": ["UPGRADE", "DOWNGRADE"],
            "DID_CHANGE_RENEWAL_STATUS": ["AUTO_RENEW_ENABLED", "AUTO_RENEW_DISABLED"],
            "OFFER_REDEEMED": ["UPGRADE", "DOWNGRADE"], "PRICE_INCREASE": ["PENDING", "ACCEPTED"], "REFUND": [],
            "REFUND_DECLINED": [], "REFUND_REVERSED": [], "CONSUMPTION_REQUEST": [], "REVOKE": [],
            "RENEWAL_EXTENDED": [], "RENEWAL_EXTENSION": ["SUMMARY", "FAILURE"], "ONE_TIME_CHARGE": [], "TEST": [],
            "EXTERNAL_PURCHASE_TOKEN": ["UNREPORTED", "CREATED", "ACTIVE_TOKEN_REMINDER"], "RESCIND_CONSENT": [],
            "METADATA_UPDATE": [], "MIGRATION": [], "PRICE_CHANGE": [],
        ]

        private struct AttemptItem: Encodable {
            let attemptDate: Int64
            let sendAttemptResult: String
        }

        /// Request a Test Notification.
        func requestTestNotification() throws(APIError) -> HTTPResponse {
            guard notifications.url != nil else { throw .serverNotificationURLNotFound }
            let uuid = UUID().uuidString.lowercased()
            let now = JWSDate(store.now).millisecondsSince1970
            let token = "\(uuid)_\(now)"
            let payload = NotificationPayload(
                notificationType: "TEST", subtype: nil, notificationUUID: uuid,
                data: NotificationPayload.DataObject(
                    bundleId: bundleID, bundleVersion: store.app.applicationVersion, environment: environment.rawValue),
                summary: nil, signedDate: now)
            try notifications.post(payload, originalTransactionID: nil, testNotificationToken: token)
            struct Response: Encodable { let testNotificationToken: String }
            return APIRequest.json(Response(testNotificationToken: token))
        }

        /// Get Test Notification Status: 404 4040008 until the first attempt was made.
        func testNotificationStatus(_ token: String) throws(APIError) -> HTTPResponse {
            guard !token.isEmpty, token.count <= 256 else { throw .invalidTestNotificationToken }
            guard let record = notifications.record(testNotificationToken: token), !record.attempts.isEmpty else {
                throw .testNotificationNotFound
            }
            struct Response: Encodable {
                let signedPayload: String
                let sendAttempts: [AttemptItem]
            }
            return APIRequest.json(
                Response(
                    signedPayload: record.signedPayload,
                    sendAttempts: record.attempts.map {
                        AttemptItem(attemptDate: $0.attemptDate, sendAttemptResult: $0.sendAttemptResult)
                    }))
        }

        /// The body of Get Notification History.
        private struct HistoryRequest: Decodable {
            var startDate: Int64?
            var endDate: Int64?
            var notificationType: String?
            var notificationSubtype: String?
            var transactionId: String?
            var onlyFailures: Bool?
        }

        /// Get Notification History: attempted notifications signed in `[startDate, endDate)`, 20 a page.
        func notificationHistory(body: [UInt8], token: String?) throws(APIError) -> HTTPResponse {
            let request = try APIRequest.decode(HistoryRequest.self, from: body)
            guard let start = request.startDate else { throw .invalidStartDate }
            guard let end = request.endDate else { throw .invalidEndDate }
            guard start < end else { throw .startDateAfterEndDate }
            let now = JWSDate(store.now).millisecondsSince1970
            guard start >= now - 180 * 86_400_000 else { throw .startDateTooFarInPast }
            if request.transactionId != nil, request.notificationType != nil { throw .multipleFiltersSupplied }
            if let type = request.notificationType {
                guard let subtypes = Self.notificationTypes[type] else { throw .invalidNotificationType }
                if let subtype = request.notificationSubtype, !subtypes.contains(subtype) {
                    throw .invalidNotificationType
                }
            } else if request.notificationSubtype != nil {
                throw .invalidNotificationType
            }
            var originalID: UInt64?
            if let text = request.transactionId {
                guard let id = APIRequest.transactionID(text) else { throw .invalidTransactionId }
                guard let record = store.transaction(id), record.state == .purchased else {
                    throw .transactionIdNotFound
                }
                originalID = record.originalID
            }
            let matching = notifications.records.filter { record in
                !record.attempts.isEmpty && record.signedDate >= start && record.signedDate < end
                    && (request.notificationType.map { $0 == record.notificationType } ?? true)
                    && (request.notificationSubtype.map { $0 == record.subtype } ?? true)
                    && (originalID.map { $0 == record.originalTransactionID } ?? true)
                    && (request.onlyFailures != true || !record.isDelivered)
            }
            var offset = 0
            if let token {
                guard let position = Int(token), position > 0, position <= matching.count else {
                    throw .invalidPaginationToken
                }
                offset = position
            }
            let page = matching.dropFirst(offset).prefix(Self.pageSize)
            let next = offset + page.count
            struct Item: Encodable {
                let signedPayload: String
                let sendAttempts: [AttemptItem]
            }
            struct Response: Encodable {
                let paginationToken: String?
                let hasMore: Bool
                let notificationHistory: [Item]
            }
            let hasMore = next < matching.count
            return APIRequest.json(
                Response(
                    paginationToken: hasMore ? String(next) : nil, hasMore: hasMore,
                    notificationHistory: page.map { record in
                        Item(
                            signedPayload: record.signedPayload,
                            sendAttempts: record.attempts.map {
                                AttemptItem(attemptDate: $0.attemptDate, sendAttemptResult: $0.sendAttemptResult)
                            })
                    }))
        }
    }
#endif
