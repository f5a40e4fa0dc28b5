import Foundation

/// What a user is entitled to: access levels and subscriptions, computed only from a verified receipt.
///
/// Its JSON form is `{"accessLevels": {"premium": {"id": "premium", "isActive": true, "expiresAt":
/// "2024-02-15T10:30:00Z"}}, "subscriptions": [{"vendorProductId": "premium_monthly", "isActive": true,
/// "expiresAt": "2024-02-15T10:30:00Z"}]}` (``jsonObject`` and ``jsonString``).
public struct Profile: Sendable, Hashable {
    /// Access levels by identifier.
    public let accessLevels: [String: AccessLevel]
    /// Subscription products, sorted by product identifier.
    public let subscriptions: [SubscriptionStatus]

    /// A profile with nothing.
    public static let empty = Profile(accessLevels: [:], subscriptions: [])

    /// Creates a profile.
    public init(accessLevels: [String: AccessLevel], subscriptions: [SubscriptionStatus]) {
        self.accessLevels = accessLevels
        self.subscriptions = subscriptions
    }

    /// Whether an access level is active.
    public func isActive(_ accessLevel: String) -> Bool { accessLevels[accessLevel]?.isActive ?? false }

    /// The JSON form as a dictionary, with `expiresAt` in ISO 8601 and absent values left out.
    public var jsonObject: [String: Any] {
        var levels: [String: Any] = [:]
        for (id, level) in accessLevels {
            var object: [String: Any] = ["id": level.id, "isActive": level.isActive]
            if let expiresAt = level.expiresAt { object["expiresAt"] = Self.format(expiresAt) }
            levels[id] = object
        }
        let subscriptions = subscriptions.map { status -> [String: Any] in
            var object: [String: Any] = ["vendorProductId": status.vendorProductId, "isActive": status.isActive]
            if let expiresAt = status.expiresAt { object["expiresAt"] = Self.format(expiresAt) }
            return object
        }
        return ["accessLevels": levels, "subscriptions": subscriptions]
    }

    /// The JSON form as text with sorted keys, the same bytes for the same profile.
    public var jsonString: String {
        guard let data = try? JSONSerialization.data(withJSONObject: jsonObject, options: [.sortedKeys]) else {
            return "{}"
        }
        return String(decoding: data, as: UTF8.self)
    }

    static func format(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
