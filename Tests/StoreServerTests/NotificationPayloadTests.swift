#if Server
    import Foundation
    @testable import StoreServer
    import Testing

    @Suite("The bytes a notification's payload is signed as")
    struct NotificationPayloadTests {
        /// What `JSONEncoder` writes for the payload, with the options the payload was signed with before.
        static func encoded(_ payload: NotificationPayload) throws -> [UInt8] {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return [UInt8](try encoder.encode(payload))
        }

        static let jws =
            "eyJhbGciOiJFUzI1NiIsIng1YyI6WyJNSUlC"
            + String(repeating: "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo-_", count: 110)
            + ".eyJ0cmFuc2FjdGlvbklkIjoiMSJ9.c2ln"

        static let payloads: [NotificationPayload] = [
            NotificationPayload(
                notificationType: "DID_RENEW", subtype: nil, notificationUUID: "9f3a41c2-0c1d-4b5e-8a2f-3c4d5e6f7a8b",
                data: NotificationPayload.DataObject(
                    bundleId: "com.example.app", bundleVersion: "1.0", environment: "Sandbox",
                    signedTransactionInfo: jws, signedRenewalInfo: jws + "x", status: 1),
                summary: nil, signedDate: 1_764_633_600_123),
            NotificationPayload(
                notificationType: "CONSUMPTION_REQUEST", subtype: nil, notificationUUID: "u",
                data: NotificationPayload.DataObject(
                    bundleId: "com.example/app", bundleVersion: "2.0 (7)", environment: "Xcode",
                    signedTransactionInfo: jws, consumptionRequestReason: "UNINTENDED_PURCHASE"),
                summary: nil, signedDate: 0),
            NotificationPayload(
                notificationType: "TEST", subtype: nil, notificationUUID: "t",
                data: NotificationPayload.DataObject(bundleId: "b", bundleVersion: "v", environment: "Sandbox"),
                summary: nil, signedDate: -1),
            NotificationPayload(
                notificationType: "RENEWAL_EXTENSION", subtype: "SUMMARY", notificationUUID: "s", data: nil,
                summary: NotificationPayload.Summary(
                    environment: "Sandbox", bundleId: "com.example.app", productId: "com.example.premium.monthly",
                    requestIdentifier: "req-1", storefrontCountryCodes: ["USA", "FRA"], succeededCount: 3,
                    failedCount: 1),
                signedDate: 1_764_633_600_000),
            NotificationPayload(
                notificationType: "RENEWAL_EXTENSION", subtype: "SUMMARY", notificationUUID: "e", data: nil,
                summary: NotificationPayload.Summary(
                    environment: "Sandbox", bundleId: "b", productId: "p", requestIdentifier: "r",
                    storefrontCountryCodes: [], succeededCount: 0, failedCount: 0),
                signedDate: 5),
        ]

        @Test("Every kind of payload is written byte for byte as JSONEncoder with sorted keys writes it")
        func sameBytesAsTheEncoder() throws {
            for payload in Self.payloads {
                #expect(
                    payload.json == (try Self.encoded(payload)),
                    "\(payload.notificationType) \(payload.subtype ?? "")")
            }
        }

        @Test("Text that JSON escapes is escaped: the payload reads back as the same values")
        func escapedText() throws {
            let texts = ["a\"b", "back\\slash", "line\nfeed\ttab\r", "\u{01}\u{1F}", "é😀\u{2028}", "/path/"]
            for text in texts {
                let payload = NotificationPayload(
                    notificationType: text, subtype: text, notificationUUID: text,
                    data: NotificationPayload.DataObject(
                        bundleId: text, bundleVersion: text, environment: text, signedTransactionInfo: text,
                        signedRenewalInfo: text, status: 4, consumptionRequestReason: text),
                    summary: NotificationPayload.Summary(
                        environment: text, bundleId: text, productId: text, requestIdentifier: text,
                        storefrontCountryCodes: [text, text], succeededCount: 1, failedCount: 2),
                    signedDate: 7)
                let written = try JSONSerialization.jsonObject(with: Data(payload.json)) as? NSDictionary
                let encoded = try JSONSerialization.jsonObject(with: Data(try Self.encoded(payload))) as? NSDictionary
                #expect(written != nil)
                #expect(written == encoded, "\(text.unicodeScalars.map(\.value))")
            }
        }
    }
#endif
