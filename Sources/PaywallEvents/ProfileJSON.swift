import Foundation
import Purchases
import StoreModels

/// The specification's JSON form of a profile, keys in its order: `{"accessLevels": {"premium": {"id": "premium",
/// "isActive": true, "expiresAt": "2024-02-15T10:30:00Z"}}, "subscriptions": [{"vendorProductId": "premium_monthly",
/// "isActive": true, "expiresAt": "2024-02-15T10:30:00Z"}]}`. `expiresAt` is left out when there is none.
enum ProfileJSON {
    static func encode(_ profile: Profile) -> JSONObjectWriter {
        var levels = JSONObjectWriter()
        for (key, level) in profile.accessLevels.sorted(by: { $0.key < $1.key }) {
            var members = JSONObjectWriter()
            members.add("id", .string(level.id))
            members.add("isActive", .bool(level.isActive))
            if let expiresAt = level.expiresAt { members.add("expiresAt", .string(format(expiresAt))) }
            levels.add(key, object: members)
        }
        let subscriptions = profile.subscriptions.map { status -> String in
            var members = JSONObjectWriter()
            members.add("vendorProductId", .string(status.vendorProductId))
            members.add("isActive", .bool(status.isActive))
            if let expiresAt = status.expiresAt { members.add("expiresAt", .string(format(expiresAt))) }
            return members.jsonString
        }
        var object = JSONObjectWriter()
        object.add("accessLevels", object: levels)
        object.add("subscriptions", json: "[" + subscriptions.joined(separator: ",") + "]")
        return object
    }

    /// `2024-02-15T10:30:00Z`.
    static func format(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
