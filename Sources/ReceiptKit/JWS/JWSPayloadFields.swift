/// The payload fields JWS verification reads: the dates that set the verification time, the bundle identifier and
/// the environment, wherever the kind of payload keeps them.
///
/// A field that is present with another JSON type than the one it has in Apple's payloads (a `signedDate` that is a
/// string, a `bundleId` that is a number) is not read as absent: ``problem`` names it, and verification refuses the
/// JWS. A `null` value is read as absent, as Apple's models decode it.
struct JWSPayloadFields: Sendable, Hashable {
    /// The earliest and latest milliseconds since 1970 a date field may hold: 0001-01-01T00:00:00Z to
    /// 9999-12-31T23:59:59.999Z.
    static let dateRange: ClosedRange<Double> = -62_135_596_800_000...253_402_300_799_999

    /// `signedDate`, in milliseconds (fractional in Xcode-signed data).
    var signedDate: Double?
    /// An app transaction's `receiptCreationDate`, in milliseconds.
    var receiptCreationDate: Double?
    /// `bundleId`, at the top level or in a notification's `data`, `summary`, `externalPurchaseToken` or `appData`.
    var bundleIdentifier: String?
    /// `environment` (an app transaction's `receiptType`), at the top level or in a notification's parts.
    var environment: String?
    /// The first field verification reads whose JSON type (or, for a date, whose value) is wrong, described for
    /// people; nil when every field read is absent, `null` or of its type.
    var problem: String?

    init(_ payload: JSONTree) {
        var problem: String?
        func field(_ value: JSONTree?, _ name: String) -> JSONTree? {
            guard let value, value != .null else { return nil }
            return value
        }
        func string(_ value: JSONTree?, _ name: String) -> String? {
            guard let value = field(value, name) else { return nil }
            guard case .string(let text) = value else {
                if problem == nil { problem = "the payload's \(name) is \(value.kind), not a string" }
                return nil
            }
            return text
        }
        func date(_ value: JSONTree?, _ name: String) -> Double? {
            guard let value = field(value, name) else { return nil }
            guard case .number(let milliseconds) = value else {
                if problem == nil {
                    problem = "the payload's \(name) is \(value.kind), not a number of milliseconds since 1970"
                }
                return nil
            }
            guard Self.dateRange.contains(milliseconds) else {
                if problem == nil {
                    problem =
                        "the payload's \(name) is \(milliseconds) milliseconds since 1970, outside the years 1 to 9999"
                }
                return nil
            }
            return milliseconds
        }
        func object(_ value: JSONTree?, _ name: String) -> JSONTree? {
            guard let value = field(value, name) else { return nil }
            guard case .object = value else {
                if problem == nil { problem = "the payload's \(name) is \(value.kind), not an object" }
                return nil
            }
            return value
        }
        signedDate = date(payload["signedDate"], "signedDate")
        receiptCreationDate = date(payload["receiptCreationDate"], "receiptCreationDate")
        bundleIdentifier = string(payload["bundleId"], "bundleId")
        environment = string(payload["environment"], "environment")
        let receiptType = string(payload["receiptType"], "receiptType")
        if environment == nil { environment = receiptType }
        // Server notifications (version 2) keep the app's fields in one of these, as Apple's libraries read them.
        for key in ["data", "summary", "appData"] {
            guard let part = object(payload[key], key) else { continue }
            let bundle = string(part["bundleId"], "\(key).bundleId")
            let partEnvironment = string(part["environment"], "\(key).environment")
            if bundleIdentifier == nil { bundleIdentifier = bundle }
            if environment == nil { environment = partEnvironment }
        }
        if let token = object(payload["externalPurchaseToken"], "externalPurchaseToken") {
            let bundle = string(token["bundleId"], "externalPurchaseToken.bundleId")
            let id = string(token["externalPurchaseId"], "externalPurchaseToken.externalPurchaseId")
            if bundleIdentifier == nil { bundleIdentifier = bundle }
            if environment == nil, let id {
                environment = id.hasPrefix("SANDBOX") ? "Sandbox" : "Production"
            }
        }
        self.problem = problem
    }
}
