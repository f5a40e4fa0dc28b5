#if Server
    import Foundation
    import ReceiptKit
    import StoreServer
    import StoreSimulator
    import TestSupport
    import Testing

    @Suite struct NotificationTypesTests {
        /// The type and subtype of every notification the receiver got, in order, each verified.
        static func received(_ receiver: TestReceiver) throws -> [String] {
            try receiver.signedPayloads.map { jws in
                let payload = try NotificationDeliveryTests.verified(jws)
                let type = payload["notificationType"] as? String ?? "?"
                return (payload["subtype"] as? String).map { type + "/" + $0 } ?? type
            }
        }

        /// The `data` of every notification the receiver got.
        static func data(_ receiver: TestReceiver) throws -> [[String: Any]] {
            try receiver.signedPayloads.map {
                try NotificationDeliveryTests.verified($0)["data"] as? [String: Any] ?? [:]
            }
        }

        static func id(_ response: (status: Int, headers: [String: String], body: [UInt8])) throws -> String {
            try #require(try TestHTTPClient.object(response.body)["transactionId"] as? String)
        }

        @Test func aSubscriptionsLifeGetsApplesTypesInStoreOrder() async throws {
            let receiver = try TestReceiver()
            let fixture = try ServerFixture(notificationsURL: receiver.url)
            defer { fixture.server.stop() }
            let month = 31 * 86_400
            _ = try await fixture.control("POST", "purchases", #"{"productId":"com.example.coins100"}"#)
            let first = try Self.id(
                try await fixture.control("POST", "purchases", #"{"productId":"com.example.premium.monthly"}"#))
            _ = try await fixture.control("POST", "advance", #"{"seconds":\#(month)}"#)
            _ = try await fixture.control("POST", "settings", #"{"billingRetryOnRenewal":true}"#)
            _ = try await fixture.control("POST", "advance", #"{"seconds":\#(month)}"#)
            _ = try await fixture.control("POST", "settings", #"{"billingRetryOnRenewal":false}"#)
            #expect(try await fixture.control("POST", "transactions/\(first)/resolve-billing").status == 200)
            let latest = try #require(fixture.store.subscriptions().first?.latestRecordID)
            _ = try await fixture.control("POST", "transactions/\(latest)/refund-request")
            _ = try await fixture.control("POST", "transactions/\(latest)/refund")
            let again = try Self.id(
                try await fixture.control("POST", "purchases", #"{"productId":"com.example.premium.monthly"}"#))
            _ = try await fixture.control("POST", "transactions/\(again)/auto-renew", #"{"enabled":false}"#)
            _ = try await fixture.control("POST", "advance", #"{"seconds":\#(month)}"#)
            try await bounded("the deliveries") { await fixture.server.notifications.idle() }
            #expect(
                try Self.received(receiver) == [
                    "ONE_TIME_CHARGE", "SUBSCRIBED/INITIAL_BUY", "DID_RENEW", "DID_FAIL_TO_RENEW",
                    "DID_RENEW/BILLING_RECOVERY", "CONSUMPTION_REQUEST", "REFUND", "SUBSCRIBED/RESUBSCRIBE",
                    "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED", "EXPIRED/VOLUNTARY",
                ])
            let statuses = try Self.data(receiver).map { $0["status"] as? Int }
            #expect(statuses == [nil, 1, 1, 3, 1, nil, 5, 1, 1, 2])
            // Signed at the store's time of each change: never decreasing, the renewal when the purchase's week of free
            // trial ended (not when the move of the clock it happened in ended).
            let dates = try receiver.signedPayloads.map {
                try NotificationDeliveryTests.verified($0)["signedDate"] as? Int ?? 0
            }
            #expect(dates == dates.sorted())
            #expect(dates[2] - dates[1] == 7 * 86_400_000)
        }

        @Test func billingGracePeriodAndItsEnd() async throws {
            let receiver = try TestReceiver()
            let fixture = try ServerFixture(notificationsURL: receiver.url)
            defer { fixture.server.stop() }
            _ = try await fixture.control("POST", "purchases", #"{"productId":"com.example.premium.monthly"}"#)
            _ = try await fixture.control(
                "POST", "settings", #"{"billingRetryOnRenewal":true,"billingGracePeriodEnabled":true}"#)
            _ = try await fixture.control("POST", "advance", #"{"seconds":\#(100 * 86_400)}"#)
            try await bounded("the deliveries") { await fixture.server.notifications.idle() }
            let received = try Self.received(receiver)
            #expect(
                Array(received.prefix(3)) == [
                    "SUBSCRIBED/INITIAL_BUY", "DID_FAIL_TO_RENEW/GRACE_PERIOD", "GRACE_PERIOD_EXPIRED",
                ])
            #expect(received.last == "EXPIRED/BILLING_RETRY")
        }

        @Test func renewalPreferencesAndPriceIncreases() async throws {
            let receiver = try TestReceiver()
            let fixture = try ServerFixture(notificationsURL: receiver.url)
            defer { fixture.server.stop() }
            let id = try Self.id(
                try await fixture.control("POST", "purchases", #"{"productId":"com.example.premium.monthly"}"#))
            _ = try await fixture.control("POST", "transactions/\(id)/auto-renew", #"{"enabled":false}"#)
            _ = try await fixture.control("POST", "transactions/\(id)/auto-renew", #"{"enabled":true}"#)
            _ = try await fixture.control("POST", "transactions/\(id)/price-increase", #"{"action":"request"}"#)
            _ = try await fixture.control("POST", "transactions/\(id)/price-increase", #"{"action":"consent"}"#)
            _ = try await fixture.control("POST", "transactions/\(id)/refund-decline")
            try await bounded("the deliveries") { await fixture.server.notifications.idle() }
            #expect(
                try Self.received(receiver) == [
                    "SUBSCRIBED/INITIAL_BUY", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED",
                    "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_ENABLED", "PRICE_INCREASE/PENDING", "PRICE_INCREASE/ACCEPTED",
                    "REFUND_DECLINED",
                ])
        }
    }
#endif
