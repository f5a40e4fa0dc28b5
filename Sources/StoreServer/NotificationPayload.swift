#if Server
    import StoreModels

    /// The decoded payload of a Server Notification V2 (`responseBodyV2DecodedPayload`), as it is signed.
    ///
    /// ``json`` writes it as `JSONEncoder` with `.sortedKeys` and `.withoutEscapingSlashes` does (members in the order
    /// of their keys' bytes, absent optionals left out), without going through `Encodable`: the two signed values it
    /// carries are 4 KB each, and the encoder's byte-by-byte escaping of them cost a third of signing the payload.
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

            /// The object, its keys sorted.
            var writer: JSONObjectWriter {
                var writer = JSONObjectWriter()
                writer.add("bundleId", json: APIRequest.quoted(bundleId))
                writer.add("bundleVersion", json: APIRequest.quoted(bundleVersion))
                if let consumptionRequestReason {
                    writer.add("consumptionRequestReason", json: APIRequest.quoted(consumptionRequestReason))
                }
                writer.add("environment", json: APIRequest.quoted(environment))
                if let signedRenewalInfo { writer.add("signedRenewalInfo", json: APIRequest.quoted(signedRenewalInfo)) }
                if let signedTransactionInfo {
                    writer.add("signedTransactionInfo", json: APIRequest.quoted(signedTransactionInfo))
                }
                if let status { writer.add("status", status) }
                return writer
            }
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

            /// The object, its keys sorted.
            var writer: JSONObjectWriter {
                var writer = JSONObjectWriter()
                writer.add("bundleId", json: APIRequest.quoted(bundleId))
                writer.add("environment", json: APIRequest.quoted(environment))
                writer.add("failedCount", json: String(failedCount))
                writer.add("productId", json: APIRequest.quoted(productId))
                writer.add("requestIdentifier", json: APIRequest.quoted(requestIdentifier))
                writer.add(
                    "storefrontCountryCodes",
                    json: "[" + storefrontCountryCodes.map(APIRequest.quoted).joined(separator: ",") + "]")
                writer.add("succeededCount", json: String(succeededCount))
                return writer
            }
        }

        var notificationType: String
        var subtype: String?
        var notificationUUID: String
        var data: DataObject?
        var summary: Summary?
        var version = "2.0"
        var signedDate: Int64

        /// The payload as compact JSON, its keys sorted at every level: the bytes that are signed.
        var json: [UInt8] {
            var writer = JSONObjectWriter()
            if let data { writer.add("data", object: data.writer) }
            writer.add("notificationType", json: APIRequest.quoted(notificationType))
            writer.add("notificationUUID", json: APIRequest.quoted(notificationUUID))
            writer.add("signedDate", json: String(signedDate))
            if let subtype { writer.add("subtype", json: APIRequest.quoted(subtype)) }
            if let summary { writer.add("summary", object: summary.writer) }
            writer.add("version", json: APIRequest.quoted(version))
            return Array(writer.jsonString.utf8)
        }
    }
#endif
