import Foundation
import Purchases
import StoreModels
import Testing

@Suite("The profile's one JSON form")
struct ProfileJSONTests {
    static let expires = Date(timeIntervalSince1970: 1_707_993_000)  // 2024-02-15T10:30:00Z

    static let profile = Profile(
        accessLevels: [
            "premium": AccessLevel(id: "premium", isActive: true, expiresAt: expires),
            "isActive": AccessLevel(id: "isActive", isActive: false, expiresAt: nil),
            "a/b": AccessLevel(id: "a/b", isActive: true, expiresAt: nil),
        ],
        subscriptions: [
            SubscriptionStatus(vendorProductId: "premium_monthly", isActive: true, expiresAt: expires),
            SubscriptionStatus(vendorProductId: "old", isActive: false, expiresAt: nil),
        ]
    )

    static func parsed(_ text: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    @Test("Sorted text, the specification's order and the dictionary all carry the same value")
    func sameValue() throws {
        let profile = Self.profile
        #expect(try Self.parsed(profile.jsonString) == profile.jsonValue)
        #expect(try Self.parsed(profile.specificationJSON.jsonString) == profile.jsonValue)
        let dictionary = try JSONSerialization.data(withJSONObject: profile.jsonObject, options: [.sortedKeys])
        #expect(try Self.parsed(String(decoding: dictionary, as: UTF8.self)) == profile.jsonValue)
    }

    @Test("The specification's order puts members in order and leaves access levels sorted by identifier")
    func specificationOrder() {
        #expect(
            Self.profile.specificationJSON.jsonString
                == #"{"accessLevels":{"a/b":{"id":"a/b","isActive":true},"isActive":{"id":"isActive","isActive":false},"#
                + #""premium":{"id":"premium","isActive":true,"expiresAt":"2024-02-15T10:30:00Z"}},"subscriptions":["#
                + #"{"vendorProductId":"premium_monthly","isActive":true,"expiresAt":"2024-02-15T10:30:00Z"},"#
                + #"{"vendorProductId":"old","isActive":false}]}"#)
    }

    @Test("Sorted text writes a slash as it is and expiry in whole seconds rounded down, as event logs and receipts do")
    func sortedText() {
        let profile = Profile(
            accessLevels: ["a/b": AccessLevel(id: "a/b", isActive: true, expiresAt: Self.expires + 0.75)],
            subscriptions: []
        )
        #expect(
            profile.jsonString
                == #"{"accessLevels":{"a/b":{"expiresAt":"2024-02-15T10:30:00Z","id":"a/b","isActive":true}},"#
                + #""subscriptions":[]}"#)
    }
}
