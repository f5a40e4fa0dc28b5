#if Server
    import Foundation
    import ReceiptKit
    import StoreModels
    import StoreServer
    import StoreSimulator
    import TestSupport
    import Testing

    @Suite struct APIEndpointTests {
        static let verifier = NotificationDeliveryTests.verifier

        /// A signed transaction, verified as Apple's libraries do, decoded.
        static func transaction(_ jws: Any?) throws -> JWSTransaction {
            let text = try #require(jws as? String)
            return try verifier.verify(
                text, options: JWSVerificationOptions(bundleIdentifier: "com.example.app", environment: .sandbox)
            ).decode(JWSTransaction.self)
        }

        static func buy(_ fixture: ServerFixture, _ product: String) async throws -> String {
            try NotificationTypesTests.id(
                try await fixture.control("POST", "purchases", #"{"productId":"\#(product)"}"#))
        }

        @Test func transactionInfoIsTheStoresSignedTransaction() async throws {
            let fixture = try ServerFixture()
            defer { fixture.server.stop() }
            let id = try await Self.buy(fixture, "com.example.pro")
            let response = try await fixture.api("GET", "/inApps/v1/transactions/\(id)")
            #expect(response.status == 200)
            let decoded = try Self.transaction(try TestHTTPClient.object(response.body)["signedTransactionInfo"])
            #expect(decoded.transactionId == id)
            #expect(decoded.productId == "com.example.pro")
            let app = try await fixture.api("GET", "/inApps/v1/transactions/appTransactions/\(id)")
            let appJWS = try #require(try TestHTTPClient.object(app.body)["signedAppTransactionInfo"] as? String)
            let appTransaction = try Self.verifier.verify(
                appJWS, options: JWSVerificationOptions(bundleIdentifier: "com.example.app", environment: .sandbox))
            #expect(appTransaction.bundleIdentifier == "com.example.app")
        }

        @Test func transactionInfoIsExactlyTheJWSTheStoreHandsOutWhateverItsTampering() async throws {
            let fixture = try ServerFixture()
            defer { fixture.server.stop() }
            let id = try await Self.buy(fixture, "com.example.pro")
            for tampering in JWSTampering.allCases {
                fixture.store.jwsTampering = tampering
                let response = try await fixture.api("GET", "/inApps/v1/transactions/\(id)")
                #expect(response.status == 200, "\(tampering)")
                #expect(response.headers["content-type"] == "application/json", "\(tampering)")
                let served = try #require(
                    try TestHTTPClient.object(response.body)["signedTransactionInfo"] as? String, "\(tampering)")
                // The JSON text is the object of that one member, written as it is.
                #expect(response.body == Array(#"{"signedTransactionInfo":"\#(served)"}"#.utf8), "\(tampering)")
                // The store's JWS (signed again, with a fresh ECDSA signature, when the root is another one).
                let jws = try fixture.store.signedTransaction(try #require(UInt64(id)))
                if tampering == .wrongRoot {
                    #expect(served.split(separator: ".").dropLast() == jws.split(separator: ".").dropLast())
                } else {
                    #expect(served == jws, "\(tampering)")
                }
            }
        }

        @Test func historyPagesByRevisionAndFilters() async throws {
            let fixture = try ServerFixture()
            defer { fixture.server.stop() }
            var bought: [String] = []
            for _ in 0..<23 { bought.append(try await Self.buy(fixture, "com.example.coins100")) }
            let pro = try await Self.buy(fixture, "com.example.pro")
            var seen: [String] = []
            var revision: String?
            var pages = 0
            while true {
                let query = revision.map { "?revision=\($0)" } ?? ""
                let response = try await fixture.api("GET", "/inApps/v2/history/\(pro)" + query)
                let object = try TestHTTPClient.object(response.body)
                let signed = try #require(object["signedTransactions"] as? [String])
                #expect(signed.count <= 20)
                seen += try signed.map { try Self.transaction($0).transactionId ?? "" }
                #expect(object["bundleId"] as? String == "com.example.app")
                #expect(object["environment"] as? String == "Sandbox")
                revision = object["revision"] as? String
                pages += 1
                guard object["hasMore"] as? Bool == true, pages < 5 else { break }
            }
            #expect(pages == 2)
            #expect(seen == bought + [pro])
            let descending = try await fixture.api("GET", "/inApps/v2/history/\(pro)?sort=DESCENDING")
            let first = try TestHTTPClient.object(descending.body)["signedTransactions"] as? [String]
            #expect(try Self.transaction(first?.first).transactionId == pro)
            let filtered = try await fixture.api(
                "GET", "/inApps/v2/history/\(pro)?productType=NON_CONSUMABLE&productType=AUTO_RENEWABLE")
            let only = try TestHTTPClient.object(filtered.body)["signedTransactions"] as? [String]
            #expect(try only?.map { try Self.transaction($0).transactionId } == [pro])
            _ = try await fixture.control("POST", "transactions/\(bought[3])/refund")
            // Apple's Python library writes booleans as True and False.
            for (value, count) in [("True", 1), ("False", 23), ("true", 1)] {
                let response = try await fixture.api(
                    "GET", "/inApps/v2/history/\(pro)?revoked=\(value)&productType=CONSUMABLE")
                #expect(response.status == 200, "revoked=\(value)")
                let signed = try TestHTTPClient.object(response.body)["signedTransactions"] as? [String]
                #expect(signed?.count == min(count, 20), "revoked=\(value)")
            }
            for (query, code) in [
                ("revision=garbage", 4_000_005), ("sort=UP", 4_000_021), ("productType=GAME", 4_000_022),
                ("startDate=yesterday", 4_000_015), ("revoked=maybe", 4_000_030), ("inAppOwnershipType=X", 4_000_026),
            ] {
                let response = try await fixture.api("GET", "/inApps/v2/history/\(pro)?" + query)
                #expect(try TestHTTPClient.object(response.body)["errorCode"] as? Int == code, "\(query)")
            }
        }

        @Test func subscriptionStatusesRefundsAndOrders() async throws {
            let fixture = try ServerFixture()
            defer { fixture.server.stop() }
            let monthly = try await Self.buy(fixture, "com.example.premium.monthly")
            let coins = try await Self.buy(fixture, "com.example.coins100")
            let response = try await fixture.api("GET", "/inApps/v1/subscriptions/\(coins)")
            let data = try #require(try TestHTTPClient.object(response.body)["data"] as? [[String: Any]])
            #expect(data.count == 1)
            let item = try #require((data.first?["lastTransactions"] as? [[String: Any]])?.first)
            #expect(item["status"] as? Int == 1)
            #expect(item["originalTransactionId"] as? String == monthly)
            #expect(try Self.transaction(item["signedTransactionInfo"]).transactionId == monthly)
            let renewal = try Self.verifier.verify(
                try #require(item["signedRenewalInfo"] as? String),
                options: JWSVerificationOptions(environment: .sandbox)
            ).decode(JWSRenewalInfo.self)
            #expect(renewal.originalTransactionId == monthly)
            let expiredOnly = try await fixture.api("GET", "/inApps/v1/subscriptions/\(coins)?status=2")
            #expect((try TestHTTPClient.object(expiredOnly.body)["data"] as? [Any])?.isEmpty == true)
            let bad = try await fixture.api("GET", "/inApps/v1/subscriptions/\(coins)?status=9")
            #expect(try TestHTTPClient.object(bad.body)["errorCode"] as? Int == 4_000_031)

            let noRefunds = try await fixture.api("GET", "/inApps/v2/refund/lookup/\(coins)")
            #expect((try TestHTTPClient.object(noRefunds.body)["signedTransactions"] as? [Any])?.isEmpty == true)
            // By refund date, not by transaction id: the later purchase is refunded first.
            _ = try await fixture.control("POST", "transactions/\(coins)/refund")
            _ = try await fixture.control("POST", "advance", #"{"seconds":60}"#)
            _ = try await fixture.control("POST", "transactions/\(monthly)/refund")
            let refunds = try await fixture.api("GET", "/inApps/v2/refund/lookup/\(coins)")
            let refunded = try TestHTTPClient.object(refunds.body)["signedTransactions"] as? [String]
            let decoded = try refunded?.map { try Self.transaction($0) }
            #expect(decoded?.map(\.transactionId) == [coins, monthly])
            #expect(decoded?.allSatisfy { $0.revocationDate != nil } == true)
            let revoked = try await fixture.api("GET", "/inApps/v1/subscriptions/\(coins)?status=5")
            #expect((try TestHTTPClient.object(revoked.body)["data"] as? [Any])?.count == 1)

            let order = try await fixture.api("GET", "/inApps/v1/lookup/\(coins)")
            #expect(try TestHTTPClient.object(order.body)["status"] as? Int == 0)
            let unknown = try await fixture.api("GET", "/inApps/v1/lookup/ABC123")
            let object = try TestHTTPClient.object(unknown.body)
            #expect(object["status"] as? Int == 1)
            #expect(object["signedTransactions"] == nil)
        }

        @Test func consumptionInformationIsCheckedAndKept() async throws {
            let fixture = try ServerFixture()
            defer { fixture.server.stop() }
            let coins = try await Self.buy(fixture, "com.example.coins100")
            let monthly = try await Self.buy(fixture, "com.example.premium.monthly")
            let good =
                #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"DELIVERED","consumptionPercentage":25000,"refundPreference":"GRANT_PRORATED"}"#
            let accepted = try await fixture.api(
                "PUT", "/inApps/v2/transactions/consumption/\(coins)", body: Array(good.utf8))
            #expect(accepted.status == 202)
            #expect(accepted.body.isEmpty)
            let kept = try await fixture.control("GET", "transactions/\(coins)/consumption")
            #expect(try TestHTTPClient.object(kept.body)["consumptionPercentage"] as? Int == 25000)
            let cases: [(String, String, Int)] = [
                (
                    coins, #"{"customerConsented":false,"sampleContentProvided":false,"deliveryStatus":"DELIVERED"}"#,
                    4_000_035
                ),
                (
                    coins, #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"LOST"}"#,
                    4_000_036
                ),
                (coins, #"{"customerConsented":true,"deliveryStatus":"DELIVERED"}"#, 4_000_041),
                (
                    coins,
                    #"{"customerConsented":true,"sampleContentProvided":true,"deliveryStatus":"DELIVERED","refundPreference":"ALL"}"#,
                    4_000_044
                ),
                (
                    monthly,
                    #"{"customerConsented":true,"sampleContentProvided":true,"deliveryStatus":"DELIVERED","consumptionPercentage":1}"#,
                    4_000_209
                ),
                (coins, #"{"customerConsented":"yes"}"#, 4_000_000),
            ]
            for (id, body, code) in cases {
                let response = try await fixture.api(
                    "PUT", "/inApps/v2/transactions/consumption/\(id)", body: Array(body.utf8))
                #expect(try TestHTTPClient.object(response.body)["errorCode"] as? Int == code, "\(body)")
            }
        }

        @Test func extendingARenewalDateMovesTheNextRenewal() async throws {
            let receiver = try TestReceiver()
            let fixture = try ServerFixture(notificationsURL: receiver.url)
            defer { fixture.server.stop() }
            let monthly = try await Self.buy(fixture, "com.example.premium.monthly")
            let before = try #require(fixture.store.subscriptions().first?.expiresAt)
            let body = #"{"extendByDays":10,"extendReasonCode":1,"requestIdentifier":"r1"}"#
            let response = try await fixture.api(
                "PUT", "/inApps/v1/subscriptions/extend/\(monthly)", body: Array(body.utf8))
            #expect(response.status == 200)
            let object = try TestHTTPClient.object(response.body)
            #expect(object["success"] as? Bool == true)
            let effective = try #require(object["effectiveDate"] as? Int)
            #expect(Double(effective) / 1000 == before.timeIntervalSince1970 + 10 * 86_400)
            // A day after the old renewal date, nothing renewed yet.
            let untilThen = before.timeIntervalSince(fixture.store.now) + 86_400
            _ = try await fixture.control("POST", "advance", #"{"seconds":\#(untilThen)}"#)
            try await bounded("the deliveries") { await fixture.server.notifications.idle() }
            #expect(try NotificationTypesTests.received(receiver) == ["SUBSCRIBED/INITIAL_BUY", "RENEWAL_EXTENDED"])
            _ = try await fixture.control("POST", "advance", #"{"seconds":\#(10 * 86_400)}"#)
            try await bounded("the renewal") { await fixture.server.notifications.idle() }
            #expect(try NotificationTypesTests.received(receiver).last == "DID_RENEW")

            for (body, code) in [
                (#"{"extendByDays":91,"extendReasonCode":1,"requestIdentifier":"r2"}"#, 4_000_009),
                (#"{"extendByDays":1,"extendReasonCode":7,"requestIdentifier":"r2"}"#, 4_000_010),
                (#"{"extendByDays":1,"extendReasonCode":1}"#, 4_000_011),
            ] {
                let refused = try await fixture.api(
                    "PUT", "/inApps/v1/subscriptions/extend/\(monthly)", body: Array(body.utf8))
                #expect(try TestHTTPClient.object(refused.body)["errorCode"] as? Int == code, "\(body)")
            }
            let coins = try await Self.buy(fixture, "com.example.coins100")
            let notOriginal = try await fixture.api(
                "PUT", "/inApps/v1/subscriptions/extend/\(coins)", body: Array(body.utf8))
            #expect(try TestHTTPClient.object(notOriginal.body)["errorCode"] as? Int == 4_030_004)
        }

        @Test func massExtensionCompletesAndReportsItsStatus() async throws {
            let fixture = try ServerFixture()
            defer { fixture.server.stop() }
            _ = try await Self.buy(fixture, "com.example.premium.monthly")
            let path = "/inApps/v1/subscriptions/extend/mass/com.example.premium.monthly/m1"
            let before = try await fixture.api("GET", path)
            #expect(try TestHTTPClient.object(before.body)["errorCode"] as? Int == 4_040_009)
            let body =
                #"{"extendByDays":3,"extendReasonCode":3,"requestIdentifier":"m1","productId":"com.example.premium.monthly"}"#
            let requested = try await fixture.api(
                "POST", "/inApps/v1/subscriptions/extend/mass", body: Array(body.utf8))
            #expect(try TestHTTPClient.object(requested.body)["requestIdentifier"] as? String == "m1")
            let status = try TestHTTPClient.object(try await fixture.api("GET", path).body)
            #expect(status["complete"] as? Bool == true)
            #expect(status["succeededCount"] as? Int == 1)
            #expect(status["failedCount"] as? Int == 0)
            let wrongCountry =
                #"{"extendByDays":3,"extendReasonCode":3,"requestIdentifier":"m2","productId":"com.example.premium.monthly","storefrontCountryCodes":["XYZ"]}"#
            let refused = try await fixture.api(
                "POST", "/inApps/v1/subscriptions/extend/mass", body: Array(wrongCountry.utf8))
            #expect(try TestHTTPClient.object(refused.body)["errorCode"] as? Int == 4_000_028)
        }
    }
#endif
