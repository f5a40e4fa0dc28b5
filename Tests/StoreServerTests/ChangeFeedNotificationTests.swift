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
            try #require(received.count == 7)
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

        /// A group of two monthly products, `pro` above `basic`, each with a promotional offer of two half-price months.
        static let offersCatalog: StoreConfiguration = {
            let month = SubscriptionPeriod(value: 1, unit: .month)
            func product(_ id: String, level: Int, price: Decimal) -> ProductDefinition {
                ProductDefinition(
                    id: id, type: .autoRenewableSubscription, price: price,
                    subscription: SubscriptionInfo(
                        groupID: "g", groupLevel: level, period: month,
                        promotionalOffers: [
                            ProductOffer(
                                identifier: id + ".offer", kind: .promotional, paymentMode: .payAsYouGo,
                                price: price / 2, period: month, numberOfPeriods: 2)
                        ]))
            }
            return StoreConfiguration(
                catalog: StoreCatalog(products: [
                    product("basic", level: 2, price: 4), product("pro", level: 1, price: 8),
                ]))
        }()

        /// A payment for a product with its promotional offer, signed well enough for a store without offer keys.
        static func offerPayment(_ productID: String, store: SimulatedStore, nonce: String) -> PaymentRequest {
            PaymentRequest(
                productID: productID,
                discount: DiscountRequest(
                    offerID: productID + ".offer", keyID: "KEY", nonce: nonce, signature: "c2lnbmF0dXJl",
                    timestamp: JWSDate(store.now).millisecondsSince1970))
        }

        @Test func offersRedeemedOnAnActiveSubscriptionAreOfferRedeemedAndAfterExpiryResubscribe() async throws {
            let store = SimulatedStore(configuration: Self.offersCatalog, lane: .manual)
            let receiver = try TestReceiver()
            let fixture = try ServerFixture(notificationsURL: receiver.url, store: store)
            defer { fixture.server.stop() }
            let listener = QuietListener()
            let device = store.connect(deviceID: "phone", frontEnd: "app", listener: listener)
            _ = device.submit(PaymentRequest(productID: "basic"))
            store.runUntilIdle()
            _ = device.submit(Self.offerPayment("basic", store: store, nonce: "n1"))  // the same product
            store.runUntilIdle()
            _ = device.submit(Self.offerPayment("pro", store: store, nonce: "n2"))  // up: at once
            store.runUntilIdle()
            _ = device.submit(Self.offerPayment("basic", store: store, nonce: "n3"))  // down: at the next renewal
            store.runUntilIdle()
            try store.advance(by: 32 * 86_400)
            try store.expireSubscription(productID: "basic")
            _ = device.submit(Self.offerPayment("pro", store: store, nonce: "n4"))  // after expiry
            store.runUntilIdle()
            try await bounded("the deliveries") { await fixture.server.notifications.idle() }

            let received = try Self.decoded(receiver)
            try #require(received.count == 7)
            #expect(
                received.map(\.type) == [
                    "SUBSCRIBED/INITIAL_BUY", "OFFER_REDEEMED", "OFFER_REDEEMED/UPGRADE", "OFFER_REDEEMED/DOWNGRADE",
                    "DID_RENEW", "EXPIRED", "SUBSCRIBED/RESUBSCRIBE",
                ])
            #expect(received[1].renewal?["offerIdentifier"] as? String == "basic.offer", "from the next renewal")
            #expect(received[2].transaction?["productId"] as? String == "pro")
            #expect(received[2].transaction?["offerIdentifier"] as? String == "pro.offer", "at once")
            #expect(received[3].renewal?["autoRenewProductId"] as? String == "basic")
            #expect(received[3].renewal?["offerIdentifier"] as? String == "basic.offer")
            #expect(received[4].transaction?["productId"] as? String == "basic")
            #expect(received[4].transaction?["offerIdentifier"] as? String == "basic.offer", "the offer began")
            #expect(received[6].transaction?["offerIdentifier"] as? String == "pro.offer")
            _ = listener
        }

        @Test func refundRequestsAndDeclinesAreStoreChanges() async throws {
            let receiver = try TestReceiver()
            let fixture = try ServerFixture(notificationsURL: receiver.url)
            defer { fixture.server.stop() }
            let store = fixture.store
            let coins = try store.buyProduct("com.example.coins100")
            try store.requestRefund(coins.id, reason: .fulfillmentIssue)
            try store.declineRefund(coins.id)
            try store.requestRefund(coins.id, reason: .legal)
            try store.refund(coins.id)
            #expect(throws: StoreSimulatorError.self) { try store.declineRefund(coins.id) }
            store.runUntilIdle()
            let bad = try await fixture.control(
                "POST", "transactions/\(coins.id)/refund-request", #"{"reason":"BORED"}"#)
            #expect(bad.status == 400)
            try await bounded("the deliveries") { await fixture.server.notifications.idle() }
            let received = try Self.decoded(receiver)
            #expect(
                received.map(\.type) == [
                    "ONE_TIME_CHARGE", "CONSUMPTION_REQUEST", "REFUND_DECLINED", "CONSUMPTION_REQUEST", "REFUND",
                ])
            #expect(
                received.map { $0.data["consumptionRequestReason"] as? String } == [
                    nil, "FULFILLMENT_ISSUE", nil, "LEGAL", nil,
                ])
        }

        @Test func aMassExtensionTellsEachSubscriptionItCouldNotExtend() async throws {
            let receiver = try TestReceiver()
            let fixture = try ServerFixture(notificationsURL: receiver.url)
            defer { fixture.server.stop() }
            let store = fixture.store
            _ = try store.buyProduct("com.example.premium.monthly", account: "extended")
            store.updateSettings {
                $0.billingRetryOnRenewal = true
                $0.billingGracePeriodEnabled = true
            }
            let retrying = try store.buyProduct("com.example.premium.monthly", account: "retrying")
            try store.advance(by: 7 * 86_400)  // both fail to renew when the trial ends
            store.updateSettings { $0.billingRetryOnRenewal = false }
            _ = try store.resolveIssue(
                try #require(store.subscriptions(of: "extended").first?.latestRecordID))
            store.runUntilIdle()
            let body =
                #"{"productId":"com.example.premium.monthly","extendByDays":7,"extendReasonCode":1,"requestIdentifier":"r1"}"#
            let answer = try await fixture.api("POST", "/inApps/v1/subscriptions/extend/mass", body: Array(body.utf8))
            #expect(answer.status == 200)
            try await bounded("the deliveries") { await fixture.server.notifications.idle() }
            let received = try Self.decoded(receiver)
            #expect(
                Array(received.map(\.type).suffix(3)) == [
                    "RENEWAL_EXTENDED", "RENEWAL_EXTENSION/FAILURE", "RENEWAL_EXTENSION/SUMMARY",
                ])
            let failure = try #require(received.dropLast().last)
            #expect(failure.transaction?["originalTransactionId"] as? String == String(retrying.id))
            #expect(failure.data["status"] as? Int == 4)
            #expect(failure.renewal != nil)
            let summary = try #require(received.last?.payload["summary"] as? [String: Any])
            #expect(summary["succeededCount"] as? Int == 1)
            #expect(summary["failedCount"] as? Int == 1)
        }
    }
#endif
