public import Purchases

/// How a purchase started from a paywall finished, when it did not fail.
///
/// Its JSON form is `{"type": "success", "profile": {...}}`, `{"type": "cancelled"}` or `{"type": "pending"}`.
public enum PurchaseResult: Sendable, Hashable {
    /// Charged, delivered and finished; the profile computed afterwards.
    case success(profile: Profile)
    /// The user cancelled: never a failure.
    case cancelled
    /// Waiting for someone else (Ask to Buy, a deferred payment): neither a success nor a failure.
    case pending

    /// `success`, `cancelled` or `pending`.
    public var type: String {
        switch self {
        case .success: "success"
        case .cancelled: "cancelled"
        case .pending: "pending"
        }
    }

    /// The JSON form.
    public var jsonString: String { orderedJSON.text }

    var orderedJSON: OrderedJSON {
        switch self {
        case .success(let profile): .object([("type", .string(type)), ("profile", ProfileJSON.encode(profile))])
        case .cancelled, .pending: .object([("type", .string(type))])
        }
    }
}
