#if Server
    import Foundation
    import ReceiptKit
    import StoreModels
    import StoreServer
    import StoreSimulator
    import TestSupport
    import Testing

    /// A device's listener that hears nothing: the store reports a device's purchases only to attached listeners.
    private final class QuietListener: DeviceListener {
        func connection(_ connection: DeviceConnection, didProduce event: DeviceEvent) {}
    }

    /// Notifications of changes made on the store itself, behind the server's back: a device's purchases, refunds,
    /// moves of the clock.
    @Suite struct ChangeFeedNotificationTests {
        static func milliseconds(_ date: Date?) -> Int? {
            date.map { Int(JWSDate($0).millisecondsSince1970) }
        }

        /// The payload, `data`, signed transaction and signed renewal info of each notification received, verified.
        static func decoded(_ receiver: TestReceiver) throws -> [(
            type: String, payload: [String: Any], data: [String: Any], transaction: [String: Any]?,
            renewal: [String: Any]?
        )] {
            try receiver.signedPayloads.map { jws in
                let payload = try NotificationDeliveryTests.verified(jws)
                let data = payload["data"] as? [String: Any] ?? [:]
                let type = payload["notificationType"] as? String ?? "?"
                return (
                    (payload["subtype"] as? String).map { type + "/" + $0 } ?? type, payload, data,
                    try (data["signedTransactionInfo"] as? String).map(NotificationDeliveryTests.verified),
                    try (data["signedRenewalInfo"] as? String).map(NotificationDeliveryTests.verified)
                )
            }
        }

        @Test func aDevicePurchaseAYearOfRenewalsAndARefundAreEachNotifiedWithTheirOwnMoment() async throws {
            let receiver = try TestReceiver()
            let fixture = try ServerFixture(notificationsURL: receiver.url)
            defer { fixture.server.stop() }
            let store = fixture.store
            let listener = QuietListener()
            let device = store.connect(deviceID: "phone", frontEnd: "app", listener: listener)
            let bought = device.submit(PaymentRequest(productID: "com.example.premium.monthly"))
            store.runUntilIdle()
            try store.advance(by: 365 * 86_400)  // the week's free trial, then eleven months
            let latest = try #require(store.subscriptions().first?.latestRecordID)
            let refunded = try store.refund(latest, reason: .developerIssue)
            store.runUntilIdle()
            try await bounded("the deliveries") { await fixture.server.notifications.idle() }

            let received = try Self.decoded(receiver)
            #expect(
                received.map(\.type)
                    == ["SUBSCRIBED/INITIAL_BUY"] + Array(repeating: "DID_RENEW", count: 12) + ["REFUND"])
            #expect(received.first?.transaction?["transactionId"] as? String == String(bought))
            let renewals = received.dropFirst().prefix(12)
            let ids = renewals.compactMap { $0.transaction?["transactionId"] as? String }
            #expect(Set(ids).count == 12, "each renewal carries its own transaction")
            for renewal in renewals {
                let transaction = try #require(renewal.transaction)
                let id = try #require(UInt64(transaction["transactionId"] as? String ?? ""))
                let record = try #require(store.transaction(id))
                #expect(transaction["expiresDate"] as? Int == Self.milliseconds(record.expirationDate))
                #expect(transaction["signedDate"] as? Int == Self.milliseconds(record.purchaseDate))
                #expect(renewal.payload["signedDate"] as? Int == Self.milliseconds(record.purchaseDate))
                #expect(renewal.renewal?["renewalDate"] as? Int == Self.milliseconds(record.expirationDate))
                #expect(renewal.data["status"] as? Int == 1)
            }
            let refund = try #require(received.last)
            #expect(refund.transaction?["transactionId"] as? String == String(latest))
            #expect(refund.transaction?["revocationDate"] as? Int == Self.milliseconds(refunded.cancellationDate))
            #expect(refund.transaction?["revocationReason"] as? Int == 1)
            #expect(refund.data["status"] as? Int == 5)
            _ = listener
        }

        @Test func upgradesDowngradesAskToBuyAndExpiriesMadeOnTheStoreGetApplesTypes() async throws {
            let receiver = try TestReceiver()
            let fixture = try ServerFixture(notificationsURL: receiver.url)
            defer { fixture.server.stop() }
            let store = fixture.store
            let listener = QuietListener()
            let device = store.connect(deviceID: "phone", frontEnd: "app", listener: listener)
            let asked = device.submit(PaymentRequest(productID: "com.example.coins100", simulatesAskToBuy: true))
            store.runUntilIdle()
            try store.approveAskToBuy(asked)
            _ = try store.buyProduct("com.example.premium.monthly")
            _ = try store.buyProduct("com.example.premium.yearly")
            _ = try store.buyProduct("com.example.premium.monthly")
            _ = try store.buyProduct("com.example.premium.yearly")
            try store.expireSubscription(productID: "com.example.premium.yearly")
            _ = try store.buyProduct("com.example.premium.yearly")
            store.runUntilIdle()
            try await bounded("the deliveries") { await fixture.server.notifications.idle() }
            let received = try Self.decoded(receiver)
            #expect(
                received.map(\.type) == [
                    "ONE_TIME_CHARGE", "SUBSCRIBED/INITIAL_BUY", "DID_CHANGE_RENEWAL_PREF/UPGRADE",
                    "DID_CHANGE_RENEWAL_PREF/DOWNGRADE", "DID_CHANGE_RENEWAL_PREF", "EXPIRED", "SUBSCRIBED/RESUBSCRIBE",
                ])
            #expect(received[0].transaction?["transactionId"] as? String == String(asked))
            #expect(received[0].renewal == nil)
            #expect(received.map { $0.data["status"] as? Int } == [nil, 1, 1, 1, 1, 2, 1])
            #expect(received[3].renewal?["autoRenewProductId"] as? String == "com.example.premium.monthly")
            #expect(received[4].renewal?["autoRenewProductId"] as? String == "com.example.premium.yearly")
            _ = listener
        }
    }
#endif
