#if Server
    import Foundation
    import ReceiptKit
    import StoreModels
    import StoreServer
    import StoreSimulator
    import Synchronization
    import TestSupport
    import Testing

    /// A device's listener that keeps the identifiers it heard removed; it hears them on the thread that runs the lane.
    private final class RemovalListener: DeviceListener {
        let removed = Mutex<[UInt64]>([])

        func connection(_ connection: DeviceConnection, didProduce event: DeviceEvent) {
            if case .removed(let ids) = event { removed.withLock { $0 += ids } }
        }
    }

    /// Set App Account Token and Finish Transaction: what a developer's server changes on a transaction.
    @Suite struct TransactionEndpointTests {
        static let token = "6b29fc40-ca47-1067-b31d-00dd010662da"

        static func setToken(_ fixture: ServerFixture, _ id: String, _ body: String) async throws -> (
            status: Int, body: [UInt8]
        ) {
            let response = try await fixture.api(
                "PUT", "/inApps/v1/transactions/\(id)/appAccountToken", body: Array(body.utf8))
            return (response.status, response.body)
        }

        static func errorCode(_ body: [UInt8]) throws -> Int? {
            try TestHTTPClient.object(body)["errorCode"] as? Int
        }

        @Test func settingAnAppAccountTokenShowsInLaterSignedTransactionsAndRenewalInfo() async throws {
            let fixture = try ServerFixture()
            defer { fixture.server.stop() }
            let monthly = try await APIEndpointTests.buy(fixture, "com.example.premium.monthly")
            let pro = try await APIEndpointTests.buy(fixture, "com.example.pro")
            let before = try await fixture.api("GET", "/inApps/v1/transactions/\(pro)")
            let unset = try APIEndpointTests.transaction(
                try TestHTTPClient.object(before.body)["signedTransactionInfo"])
            #expect(unset.appAccountToken == nil)

            // Uppercase is a UUID too; the token is kept, and shown, in lowercase.
            let set = try await Self.setToken(fixture, pro, #"{"appAccountToken":"\#(Self.token.uppercased())"}"#)
            #expect(set.status == 200)
            #expect(set.body.isEmpty)
            let after = try await fixture.api("GET", "/inApps/v1/transactions/\(pro)")
            let signed = try APIEndpointTests.transaction(
                try TestHTTPClient.object(after.body)["signedTransactionInfo"])
            #expect(signed.appAccountToken == Self.token)

            // A subscription: from its current period on, and in its renewal info; its past periods keep theirs.
            try fixture.store.advance(by: 10 * 86_400)  // the week's free trial ends: a renewal
            fixture.store.runUntilIdle()
            let replaced = "0f8fad5b-d9cb-469f-a165-70867728950e"
            #expect(try await Self.setToken(fixture, monthly, #"{"appAccountToken":"\#(replaced)"}"#).status == 200)
            try fixture.store.advance(by: 31 * 86_400)  // the next renewal
            fixture.store.runUntilIdle()
            let statuses = try await fixture.api("GET", "/inApps/v1/subscriptions/\(monthly)")
            let groups = try #require(try TestHTTPClient.object(statuses.body)["data"] as? [[String: Any]])
            let item = try #require((groups.first?["lastTransactions"] as? [[String: Any]])?.first)
            let latest = try APIEndpointTests.transaction(item["signedTransactionInfo"])
            #expect(latest.transactionId != monthly, "renewed")
            #expect(latest.appAccountToken == replaced)
            let renewal = try NotificationDeliveryTests.verified(try #require(item["signedRenewalInfo"] as? String))
            #expect(renewal["appAccountToken"] as? String == replaced)
            let first = try await fixture.api("GET", "/inApps/v1/transactions/\(monthly)")
            let past = try APIEndpointTests.transaction(try TestHTTPClient.object(first.body)["signedTransactionInfo"])
            #expect(past.appAccountToken == nil, "the trial period ended before the token was set")
        }

        @Test func setAppAccountTokenRefusesWhatAppleRefuses() async throws {
            let store = SimulatedStore(lane: .manual)
            let fixture = try ServerFixture(store: store)
            defer { fixture.server.stop() }
            let monthly = try await APIEndpointTests.buy(fixture, "com.example.premium.monthly")
            try store.advance(by: 10 * 86_400)
            store.runUntilIdle()
            let renewal = try #require(store.subscriptions().first?.latestRecordID)
            #expect(String(renewal) != monthly)
            let joined = try await fixture.control(
                "POST", "family", #"{"family": "smiths", "accounts": ["default", "bob"]}"#)
            #expect(joined.status == 200)
            let pro = try await APIEndpointTests.buy(fixture, "com.example.pro")
            let shared = try #require(store.allTransactions().first { $0.isFamilyShared && $0.account == "bob" })
            let good = #"{"appAccountToken":"\#(Self.token)"}"#
            let cases: [(String, String, Int, Int)] = [
                ("12ab", good, 400, 4_000_006),
                (monthly, #"{"appAccountToken":"not-a-uuid"}"#, 400, 4_000_183),
                (monthly, #"{}"#, 400, 4_000_183),
                (monthly, #"{"appAccountToken":12}"#, 400, 4_000_000),
                (monthly, #"{"appAccountToken""#, 400, 4_000_000),
                ("999999999", good, 404, 4_040_005),
                (String(renewal), good, 400, 4_000_187),
                (String(shared.id), good, 400, 4_000_185),
            ]
            let before = store.allTransactions()
            for (id, body, status, code) in cases {
                let response = try await Self.setToken(fixture, id, body)
                #expect(response.status == status, "\(id) \(body)")
                #expect(try Self.errorCode(response.body) == code, "\(id) \(body)")
            }
            #expect(store.allTransactions() == before, "a refusal changes nothing")
            #expect(try await Self.setToken(fixture, pro, good).status == 200)
        }

        @Test func finishingAConsumableTakesItOffTheDevicesUnfinishedTransactions() async throws {
            let fixture = try ServerFixture()
            defer { fixture.server.stop() }
            let store = fixture.store
            let listener = RemovalListener()
            let phone = store.connect(deviceID: "phone", frontEnd: "app", listener: listener)
            let coins = phone.submit(PaymentRequest(productID: "com.example.coins100"))
            let pro = phone.submit(PaymentRequest(productID: "com.example.pro"))
            store.runUntilIdle()
            #expect(phone.unfinishedTransactions.map(\.id) == [coins, pro])
            #expect(phone.unfinishedTransactions.allSatisfy { $0.state == .purchased })

            let response = try await fixture.api("POST", "/inApps/v1/transactions/\(coins)/finish")
            #expect(response.status == 200)
            #expect(response.body.isEmpty)
            #expect(phone.unfinishedTransactions.map(\.id) == [pro], "the device no longer holds it")
            #expect(listener.removed.withLock { $0 } == [coins], "and its front end heard it removed")
            // Finished again, or a transaction no device holds: nothing more happens, and Apple answers 200 alike.
            #expect(try await fixture.api("POST", "/inApps/v1/transactions/\(coins)/finish").status == 200)
            #expect(listener.removed.withLock { $0 } == [coins])
            // The transaction is still the store's: the API reads it as before.
            #expect(try await fixture.api("GET", "/inApps/v1/transactions/\(coins)").status == 200)
            withExtendedLifetime(listener) {}
        }

        @Test func finishTransactionRefusesWhatAppleRefuses() async throws {
            let fixture = try ServerFixture()
            defer { fixture.server.stop() }
            for (id, status, code) in [("12ab", 400, 4_000_006), ("999999999", 404, 4_040_010)] {
                let response = try await fixture.api("POST", "/inApps/v1/transactions/\(id)/finish")
                #expect(response.status == status, "\(id)")
                #expect(try Self.errorCode(response.body) == code, "\(id)")
            }
        }
    }
#endif
