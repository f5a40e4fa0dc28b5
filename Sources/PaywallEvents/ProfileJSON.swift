import Foundation
import Purchases

/// The specification's JSON form of a profile, keys in its order: `{"accessLevels": {"premium": {"id": "premium",
/// "isActive": true, "expiresAt": "2024-02-15T10:30:00Z"}}, "subscriptions": [{"vendorProductId": "premium_monthly",
/// "isActive": true, "expiresAt": "2024-02-15T10:30:00Z"}]}`. `expiresAt` is left out when there is none.
enum ProfileJSON {
    static func encode(_ profile: Profile) -> OrderedJSON {
        let levels = profile.accessLevels.sorted { $0.key < $1.key }.map { key, level -> (String, OrderedJSON) in
            var members: [(String, OrderedJSON)] = [("id", .string(level.id)), ("isActive", .bool(level.isActive))]
            if let expiresAt = level.expiresAt { members.append(("expiresAt", .string(format(expiresAt)))) }
            return (key, .object(members))
        }
        let subscriptions = profile.subscriptions.map { status -> OrderedJSON in
            var members: [(String, OrderedJSON)] = [
                ("vendorProductId", .string(status.vendorProductId)), ("isActive", .bool(status.isActive)),
            ]
            if let expiresAt = status.expiresAt { members.append(("expiresAt", .string(format(expiresAt)))) }
            return .object(members)
        }
        return .object([("accessLevels", .object(levels)), ("subscriptions", .array(subscriptions))])
    }

    /// `2024-02-15T10:30:00Z`.
    static func format(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
