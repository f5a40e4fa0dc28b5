import Foundation
public import StoreModels

/// What a user is entitled to: access levels and subscriptions, computed only from a verified receipt.
///
/// Its JSON form is `{"accessLevels": {"premium": {"id": "premium", "isActive": true, "expiresAt":
/// "2024-02-15T10:30:00Z"}}, "subscriptions": [{"vendorProductId": "premium_monthly", "isActive": true,
/// "expiresAt": "2024-02-15T10:30:00Z"}]}` (``jsonValue``, written by ``jsonObject``, ``jsonString`` and
/// ``specificationJSON``).
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

    /// The JSON form as a value: `expiresAt` as `2024-02-15T10:30:00Z` (UTC, in whole seconds, rounded down), absent
    /// values left out. The one definition of the form: ``jsonObject``, ``jsonString`` and ``specificationJSON`` write
    /// it.
    public var jsonValue: JSONValue {
        .object([
            "accessLevels": .object(accessLevels.mapValues { .object(Self.members(of: $0)) }),
            "subscriptions": .array(subscriptions.map { .object(Self.members(of: $0)) }),
        ])
    }

    /// The JSON form as a dictionary, with `expiresAt` in ISO 8601 and absent values left out.
    public var jsonObject: [String: Any] {
        Self.foundationValue(jsonValue) as? [String: Any] ?? [:]
    }

    /// The JSON form as text with sorted keys, the same bytes for the same profile.
    public var jsonString: String { jsonValue.jsonString }

    /// The JSON form with members in the specification's order (`accessLevels`, `subscriptions`; `id` or
    /// `vendorProductId`, `isActive`, `expiresAt`), access levels sorted by identifier: what paywall event payloads
    /// carry.
    public var specificationJSON: JSONObjectWriter {
        var levels = JSONObjectWriter()
        for (key, level) in accessLevels.sorted(by: { $0.key < $1.key }) {
            levels.add(key, object: JSONObjectWriter(Self.members(of: level), keyOrder: Self.memberOrder))
        }
        var object = JSONObjectWriter()
        object.add("accessLevels", object: levels)
        object.add(
            "subscriptions",
            objects: subscriptions.map { JSONObjectWriter(Self.members(of: $0), keyOrder: Self.memberOrder) })
        return object
    }

    private static let memberOrder = ["id", "vendorProductId", "isActive", "expiresAt"]

    private static func members(of level: AccessLevel) -> [String: JSONValue] {
        var members: [String: JSONValue] = ["id": .string(level.id), "isActive": .bool(level.isActive)]
        if let expiresAt = level.expiresAt { members["expiresAt"] = .string(UTCDateTime(expiresAt).text()) }
        return members
    }

    private static func members(of status: SubscriptionStatus) -> [String: JSONValue] {
        var members: [String: JSONValue] = [
            "vendorProductId": .string(status.vendorProductId), "isActive": .bool(status.isActive),
        ]
        if let expiresAt = status.expiresAt { members["expiresAt"] = .string(UTCDateTime(expiresAt).text()) }
        return members
    }

    private static func foundationValue(_ value: JSONValue) -> Any {
        switch value {
        case .object(let object): object.mapValues(foundationValue)
        case .array(let array): array.map(foundationValue)
        case .string(let text): text
        case .number(let number): number
        case .bool(let flag): flag
        case .null: NSNull()
        }
    }
}
