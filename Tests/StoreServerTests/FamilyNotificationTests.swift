#if Server
    import Foundation
    import ReceiptKit
    import StoreModels
    import StoreServer
    import StoreSimulator
    import TestSupport
    import Testing

    /// The demo catalog with its monthly subscription marked `familyShareable` (the demo's non-consumable already is).
    private let familyCatalog = StoreConfiguration(
        catalog: StoreCatalog(
            products: StoreConfiguration.demo.catalog.products.map { product in
                guard product.id == "com.example.premium.monthly" else { return product }
                return ProductDefinition(
                    id: product.id, referenceName: product.referenceName, type: product.type, price: product.price,
                    isFamilyShareable: true, localizations: product.localizations, subscription: product.subscription)
            }))

    /// Notifications of Family Sharing: the members' shared transactions and their revocation.
    @Suite struct FamilyNotificationTests {
        @Test func membersGetTheirOwnSharedTransactionsAndAREVOKEForEachRevokedOne() async throws {
            let receiver = try TestReceiver()
            let store = SimulatedStore(configuration: familyCatalog, lane: .manual)
            let fixture = try ServerFixture(notificationsURL: receiver.url, store: store)
            defer { fixture.server.stop() }
            let joined = try await fixture.control(
                "POST", "family", #"{"family": "smiths", "accounts": ["alice", "bob"]}"#)
            #expect(joined.status == 200)
            #expect(try TestHTTPClient.object(joined.body)["accounts"] as? [String] == ["alice", "bob"])
            #expect(store.family(of: "bob") == "smiths")
            let pro = try store.buyProduct("com.example.pro", account: "alice")
            _ = try store.buyProduct("com.example.premium.monthly", account: "alice")
            // Get All Subscription Statuses for the member: the shared subscription, under the member's own original.
            let bobsMonthly = try #require(store.transactions(of: "bob").last)
            let statuses = try await fixture.api("GET", "/inApps/v1/subscriptions/\(bobsMonthly.id)")
            #expect(statuses.status == 200)
            let groups = try TestHTTPClient.object(statuses.body)["data"] as? [[String: Any]] ?? []
            let last = try #require((groups.first?["lastTransactions"] as? [[String: Any]])?.first)
            #expect(last["status"] as? Int == 1)
            #expect(last["originalTransactionId"] as? String == String(bobsMonthly.originalID))
            let renewal = try NotificationDeliveryTests.verified(last["signedRenewalInfo"] as? String ?? "")
            #expect(renewal["originalTransactionId"] as? String == String(bobsMonthly.originalID))
            #expect(renewal["autoRenewStatus"] as? Int == 1)
            let signedShare = try NotificationDeliveryTests.verified(last["signedTransactionInfo"] as? String ?? "")
            #expect(signedShare["inAppOwnershipType"] as? String == "FAMILY_SHARED")

            let left = try await fixture.control("POST", "family/leave", #"{"account": "bob"}"#)
            #expect(left.status == 200)
            store.runUntilIdle()
            try await bounded("the deliveries") { await fixture.server.notifications.idle() }

            let received = try ChangeFeedNotificationTests.decoded(receiver)
            let lines = received.map { notification in
                let transaction = notification.transaction ?? [:]
                let account = store.transaction(UInt64(transaction["transactionId"] as? String ?? "") ?? 0)?.account
                return "\(notification.type) \(account ?? "?") \(transaction["inAppOwnershipType"] as? String ?? "?")"
            }
            #expect(
                lines == [
                    "ONE_TIME_CHARGE alice PURCHASED", "ONE_TIME_CHARGE bob FAMILY_SHARED",
                    "SUBSCRIBED/INITIAL_BUY alice PURCHASED", "SUBSCRIBED/INITIAL_BUY bob FAMILY_SHARED",
                    "REVOKE bob FAMILY_SHARED", "REVOKE bob FAMILY_SHARED",
                ])
            let shared = try #require(store.transactions(of: "bob").first)
            #expect(received[1].transaction?["transactionId"] as? String == String(shared.id))
            #expect(received[1].transaction?["productId"] as? String == pro.productID)
            #expect(received[3].data["status"] as? Int == 1)
            for revoke in received.suffix(2) {
                #expect(revoke.transaction?["revocationType"] as? String == "FAMILY_REVOKE")
                #expect(revoke.transaction?["revocationDate"] as? Int != nil)
            }
            #expect(received[5].data["status"] as? Int == 5, "revoked, as Get All Subscription Statuses says")

            // Get Transaction History filters by ownership.
            for (ownership, expected) in [("FAMILY_SHARED", 2), ("PURCHASED", 0)] {
                let response = try await fixture.api(
                    "GET", "/inApps/v2/history/\(shared.id)?inAppOwnershipType=\(ownership)")
                #expect(response.status == 200)
                let signed = try TestHTTPClient.object(response.body)["signedTransactions"] as? [String] ?? []
                #expect(signed.count == expected, "\(ownership)")
            }
            let refused = try await fixture.control("POST", "family/leave", #"{"account": "bob"}"#)
            #expect(refused.status == 400, "bob is in no family any more")
        }
    }
#endif
