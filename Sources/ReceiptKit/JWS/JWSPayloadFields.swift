import Foundation

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

    init(_ payload: [String: Any]) {
        signedDate = Self.number(payload["signedDate"])
        receiptCreationDate = Self.number(payload["receiptCreationDate"])
        bundleIdentifier = payload["bundleId"] as? String
        environment = (payload["environment"] as? String) ?? (payload["receiptType"] as? String)
        // Server notifications (version 2) keep the app's fields in one of these, as Apple's libraries read them.
        for key in ["data", "summary", "appData"] {
            guard let part = payload[key] as? [String: Any] else { continue }
            if bundleIdentifier == nil { bundleIdentifier = part["bundleId"] as? String }
            if environment == nil { environment = part["environment"] as? String }
        }
        if let token = payload["externalPurchaseToken"] as? [String: Any] {
            if bundleIdentifier == nil { bundleIdentifier = token["bundleId"] as? String }
            if environment == nil, let id = token["externalPurchaseId"] as? String {
                environment = id.hasPrefix("SANDBOX") ? "Sandbox" : "Production"
            }
        }
    }

    /// A JSON number (not a boolean) as a finite double.
    private static func number(_ value: Any?) -> Double? {
        guard let number = value as? NSNumber else { return nil }
        // Foundation keeps JSON booleans as NSNumbers of C type `c` (char); numbers are `q` (integer) or `d`.
        if String(cString: number.objCType) == "c" { return nil }
        let double = number.doubleValue
        return double.isFinite ? double : nil
    }
}
