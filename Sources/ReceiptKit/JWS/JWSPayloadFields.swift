/// The payload fields JWS verification reads: the dates that set the verification time, the bundle identifier and
/// the environment, wherever the kind of payload keeps them.
struct JWSPayloadFields: Sendable, Hashable {
    /// `signedDate`, in milliseconds (fractional in Xcode-signed data).
    var signedDate: Double?
    /// An app transaction's `receiptCreationDate`, in milliseconds.
    var receiptCreationDate: Double?
    /// `bundleId`, at the top level or in a notification's `data`, `summary`, `externalPurchaseToken` or `appData`.
    var bundleIdentifier: String?
    /// `environment` (an app transaction's `receiptType`), at the top level or in a notification's parts.
    var environment: String?

    init(_ payload: JSONTree) {
        signedDate = payload["signedDate"]?.number
        receiptCreationDate = payload["receiptCreationDate"]?.number
        bundleIdentifier = payload["bundleId"]?.string
        environment = payload["environment"]?.string ?? payload["receiptType"]?.string
        // Server notifications (version 2) keep the app's fields in one of these, as Apple's libraries read them.
        for key in ["data", "summary", "appData"] {
            guard let part = payload[key] else { continue }
            if bundleIdentifier == nil { bundleIdentifier = part["bundleId"]?.string }
            if environment == nil { environment = part["environment"]?.string }
        }
        if let token = payload["externalPurchaseToken"] {
            if bundleIdentifier == nil { bundleIdentifier = token["bundleId"]?.string }
            if environment == nil, let id = token["externalPurchaseId"]?.string {
                environment = id.hasPrefix("SANDBOX") ? "Sandbox" : "Production"
            }
        }
    }
}
