#if Server
    import Foundation
    import ReceiptKit
    import StoreModels
    import StoreServer
    import StoreSimulator
    import TestSupport
    import Testing

    @Suite struct RefundReversalNotificationTests {
        @Test func aReversedRefundSendsRefundReversedWithTheReinstatedTransaction() async throws {
            let receiver = try TestReceiver()
            let fixture = try ServerFixture(notificationsURL: receiver.url)
            defer { fixture.server.stop() }
            let id = try NotificationTypesTests.id(
                try await fixture.control("POST", "purchases", #"{"productId":"com.example.premium.monthly"}"#))
            _ = try await fixture.control("POST", "advance", #"{"seconds":\#(2 * 86_400)}"#)
            #expect(try await fixture.control("POST", "transactions/\(id)/refund").status == 200)
            #expect(try await fixture.control("POST", "transactions/\(id)/refund-reverse").status == 200)
            try await bounded("the deliveries") { await fixture.server.notifications.idle() }
            // Only the reversal: its auto-renew coming back is part of it, not a change of renewal status.
            #expect(
                try NotificationTypesTests.received(receiver) == [
                    "SUBSCRIBED/INITIAL_BUY", "REFUND", "REFUND_REVERSED",
                ])
            let data = try NotificationTypesTests.data(receiver)
            #expect(data.map { $0["status"] as? Int } == [1, 5, 1])
            let signed = try #require(data.last?["signedTransactionInfo"] as? String)
            let transaction = try NotificationDeliveryTests.verified(signed)
            #expect(transaction["transactionId"] as? String == id)
            #expect(transaction["revocationDate"] == nil)
            #expect(transaction["revocationReason"] == nil)
            let renewal = try NotificationDeliveryTests.verified(
                try #require(data.last?["signedRenewalInfo"] as? String))
            #expect(renewal["autoRenewStatus"] as? Int == 1)
        }

        @Test func aReversalMadeOnTheStoreItselfIsNotifiedToo() async throws {
            let receiver = try TestReceiver()
            let fixture = try ServerFixture(notificationsURL: receiver.url)
            defer { fixture.server.stop() }
            let store = fixture.store
            let pro = try store.buyProduct("com.example.pro")
            try store.refund(pro.id)
            try store.reverseRefund(transactionID: pro.id)
            store.runUntilIdle()
            try await bounded("the deliveries") { await fixture.server.notifications.idle() }
            #expect(try NotificationTypesTests.received(receiver) == ["ONE_TIME_CHARGE", "REFUND", "REFUND_REVERSED"])
            let data = try NotificationTypesTests.data(receiver)
            #expect(data.last?["status"] == nil, "a one-time purchase has no subscription status")
            let signed = try #require(data.last?["signedTransactionInfo"] as? String)
            #expect(try NotificationDeliveryTests.verified(signed)["revocationDate"] == nil)
            #expect(data[1]["signedTransactionInfo"] as? String != signed, "signed as it stood at each change")
        }

        @Test func reversingATransactionNeverRefundedIsRefusedNamingIt() async throws {
            let fixture = try ServerFixture()
            defer { fixture.server.stop() }
            let id = try NotificationTypesTests.id(
                try await fixture.control("POST", "purchases", #"{"productId":"com.example.pro"}"#))
            let response = try await fixture.control("POST", "transactions/\(id)/refund-reverse")
            #expect(response.status == 400)
            let error = try #require(try TestHTTPClient.object(response.body)["error"] as? [String: Any])
            #expect(error["code"] as? Int == 114)
            #expect((error["message"] as? String)?.contains("transaction \(id)") == true)
            #expect(try await fixture.control("POST", "transactions/42/refund-reverse").status == 404)
        }
    }
#endif
