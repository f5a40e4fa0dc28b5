public import Purchases
import StoreModels

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
    public var jsonString: String { jsonObject.jsonString }

    var jsonObject: JSONObjectWriter {
        var object = JSONObjectWriter()
        object.add("type", .string(type))
        if case .success(let profile) = self { object.add("profile", object: profile.specificationJSON) }
        return object
    }
}
