#if Server
    /// The decoded payload of a Server Notification V2 (`responseBodyV2DecodedPayload`), as it is signed.
    struct NotificationPayload: Encodable {
        /// The `data` object: the app and the signed transaction and renewal info.
        struct DataObject: Encodable {
            var bundleId: String
            var bundleVersion: String
            var environment: String
            var signedTransactionInfo: String?
            var signedRenewalInfo: String?
            var status: Int?
            var consumptionRequestReason: String?
        }

        /// The `summary` object of RENEWAL_EXTENSION/SUMMARY.
        struct Summary: Encodable {
            var environment: String
            var bundleId: String
            var productId: String
            var requestIdentifier: String
            var storefrontCountryCodes: [String]
            var succeededCount: Int64
            var failedCount: Int64
        }

        var notificationType: String
        var subtype: String?
        var notificationUUID: String
        var data: DataObject?
        var summary: Summary?
        var version = "2.0"
        var signedDate: Int64
    }
#endif
