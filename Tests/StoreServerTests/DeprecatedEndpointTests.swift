#if Server
    import Foundation
    import ReceiptKit
    import StoreModels
    import StoreServer
    import StoreSimulator
    import Testing

    /// Send Consumption Information V1, Get Refund History V1, Get Transaction History v1 and v2 of consumables, and
    /// prorated refunds through the control API.
    @Suite struct DeprecatedEndpointTests {
        static var goodV1: [String: Any] {
            [
                "customerConsented": true, "consumptionStatus": 2, "platform": 1, "sampleContentProvided": false,
                "deliveryStatus": 0, "appAccountToken": "", "accountTenure": 3, "playTime": 4,
                "lifetimeDollarsRefunded": 1, "lifetimeDollarsPurchased": 3, "userStatus": 1, "refundPreference": 2,
            ]
        }

        static func body(_ object: [String: Any]) throws -> [UInt8] {
            Array(try JSONSerialization.data(withJSONObject: object))
        }

        static func errorCode(_ response: (status: Int, headers: [String: String], body: [UInt8])) throws -> Int? {
            try TestHTTPClient.object(response.body)["errorCode"] as? Int
        }

        @Test func consumptionV1IsCheckedFieldByFieldAndKept() async throws {
            let fixture = try ServerFixture()
            defer { fixture.server.stop() }
            let coins = try await APIEndpointTests.buy(fixture, "com.example.coins100")
            let monthly = try await APIEndpointTests.buy(fixture, "com.example.premium.monthly")
            let pro = try await APIEndpointTests.buy(fixture, "com.example.pro")
            let path = "/inApps/v1/transactions/consumption/"
            let accepted = try await fixture.api("PUT", path + coins, body: try Self.body(Self.goodV1))
            #expect(accepted.status == 202)
            #expect(accepted.body.isEmpty)
            let kept = try TestHTTPClient.object(
                try await fixture.control("GET", "transactions/\(coins)/consumption").body)
            let version1 = try #require(kept["version1"] as? [String: Any])
            #expect(version1["playTime"] as? Int == 4)
            #expect(version1["appAccountToken"] == nil, "the empty string is no token")
            #expect(kept["deliveryStatus"] as? String == "DELIVERED")
            #expect(kept["refundPreference"] as? String == "DECLINE", "2, prefer decline")
            // A subscription takes V1 too, with a token.
            var withToken = Self.goodV1
            withToken["appAccountToken"] = "7e3fb20b-4cdb-47cc-936d-99d65f608138"
            withToken["refundPreference"] = nil
            #expect(try await fixture.api("PUT", path + monthly, body: try Self.body(withToken)).status == 202)

            // Each field absent, of another type or out of range gets its own code.
            let fields: [(String, Int, [Any?])] = [
                ("customerConsented", 4_000_035, [nil, false, "true", 1]),
                ("consumptionStatus", 4_000_034, [nil, 4, -1, "2", 2.5]),
                ("platform", 4_000_039, [nil, 3, true]),
                ("sampleContentProvided", 4_000_041, [nil, "no", 0]),
                ("deliveryStatus", 4_000_036, [nil, 6, "DELIVERED"]),
                ("appAccountToken", 4_000_033, [nil, "not-a-uuid", 5]),
                ("accountTenure", 4_000_032, [nil, 8]),
                ("playTime", 4_000_040, [nil, 8]),
                ("lifetimeDollarsRefunded", 4_000_038, [nil, 8]),
                ("lifetimeDollarsPurchased", 4_000_037, [nil, -2]),
                ("userStatus", 4_000_042, [nil, 5]),
                ("refundPreference", 4_000_044, [4, "PREFER_GRANT"]),
            ]
            for (field, code, values) in fields {
                for value in values {
                    var object = Self.goodV1
                    object[field] = value
                    let response = try await fixture.api("PUT", path + coins, body: try Self.body(object))
                    #expect(response.status == 400, "\(field) = \(String(describing: value))")
                    #expect(try Self.errorCode(response) == code, "\(field) = \(String(describing: value))")
                    let message = try TestHTTPClient.object(response.body)["errorMessage"] as? String ?? ""
                    #expect(message.hasPrefix("Invalid request."), "\(message)")
                }
            }
            // Not a product V1 takes, an unknown or malformed id, a body that is not an object.
            let nonConsumable = try await fixture.api("PUT", path + pro, body: try Self.body(Self.goodV1))
            #expect(try Self.errorCode(nonConsumable) == 4_000_047)
            #expect(
                try Self.errorCode(try await fixture.api("PUT", path + "999", body: try Self.body(Self.goodV1)))
                    == 4_040_010)
            #expect(
                try Self.errorCode(try await fixture.api("PUT", path + "x1", body: try Self.body(Self.goodV1)))
                    == 4_000_006)
            #expect(
                try Self.errorCode(try await fixture.api("PUT", path + coins, body: Array("[1]".utf8))) == 4_000_000)
            // What was kept is still the first request.
            let after = try TestHTTPClient.object(
                try await fixture.control("GET", "transactions/\(coins)/consumption").body)
            #expect((after["version1"] as? [String: Any])?["playTime"] as? Int == 4)
        }

        @Test func refundLookupV1ListsTheRefundsOfAnOriginalTransactionsCustomer() async throws {
            let fixture = try ServerFixture()
            defer { fixture.server.stop() }
            let pro = try await APIEndpointTests.buy(fixture, "com.example.pro")
            let coins = try await APIEndpointTests.buy(fixture, "com.example.coins100")
            let lookup = "/inApps/v1/refund/lookup/"
            let none = try await fixture.api("GET", lookup + pro)
            #expect(none.status == 200)
            #expect(try TestHTTPClient.object(none.body)["signedTransactions"] as? [String] == [])
            #expect(
                try await fixture.control("POST", "transactions/\(coins)/refund", #"{"percentage":40000}"#).status
                    == 200)
            _ = try await fixture.control("POST", "advance", #"{"seconds":60}"#)
            _ = try await fixture.control("POST", "transactions/\(pro)/refund")
            let response = try await fixture.api("GET", lookup + pro)
            #expect(response.status == 200)
            let object = try TestHTTPClient.object(response.body)
            #expect(object.keys.sorted() == ["signedTransactions"], "no paging")
            let signed = try #require(object["signedTransactions"] as? [String])
            let decoded = try signed.map { try APIEndpointTests.transaction($0) }
            #expect(decoded.map(\.transactionId) == [coins, pro], "oldest refund first")
            #expect(decoded[0].revocationType == .refundProrated && decoded[0].revocationPercentage == 40_000)
            #expect(decoded[1].revocationType == .refundFull && decoded[1].revocationPercentage == 100_000)
            // Version 2 agrees.
            let v2 = try TestHTTPClient.object(try await fixture.api("GET", "/inApps/v2/refund/lookup/\(pro)").body)
            #expect(v2["signedTransactions"] as? [String] == signed)

            #expect(try Self.errorCode(try await fixture.api("GET", lookup + "abc")) == 4_000_008)
            #expect(try Self.errorCode(try await fixture.api("GET", lookup + "424242")) == 4_040_005)
            // A renewal is not an original transaction.
            let monthly = try await APIEndpointTests.buy(fixture, "com.example.premium.monthly")
            _ = try await fixture.control("POST", "advance", #"{"seconds":2764800}"#)
            let renewal = try #require(fixture.store.transactionHistory(view: .serverVersion2).last)
            #expect(String(renewal.originalID) == monthly && String(renewal.id) != monthly)
            #expect(try Self.errorCode(try await fixture.api("GET", lookup + String(renewal.id))) == 4_040_005)
            #expect(try await fixture.api("GET", lookup + monthly).status == 200)
        }

        @Test func controlRefundPercentageIsCheckedAndSigned() async throws {
            let fixture = try ServerFixture()
            defer { fixture.server.stop() }
            let pro = try await APIEndpointTests.buy(fixture, "com.example.pro")
            for bad in [
                #"{"percentage":0}"#, #"{"percentage":100001}"#, #"{"percentage":"50%"}"#, #"{"percentage":2.5}"#,
            ] {
                let refused = try await fixture.control("POST", "transactions/\(pro)/refund", bad)
                #expect(refused.status == 400, "\(bad)")
                let message = String(decoding: refused.body, as: UTF8.self)
                #expect(message.contains("percentage"), "\(message)")
            }
            #expect(fixture.store.transaction(try #require(UInt64(pro)))?.cancellationDate == nil)
            _ = try await fixture.control("POST", "transactions/\(pro)/refund", #"{"percentage":12345}"#)
            let info = try await fixture.api("GET", "/inApps/v1/transactions/\(pro)")
            let decoded = try APIEndpointTests.transaction(
                try TestHTTPClient.object(info.body)["signedTransactionInfo"])
            #expect(decoded.revocationType == .refundProrated)
            #expect(decoded.revocationPercentage == 12_345)
        }

        @Test func historyV2ListsFinishedConsumablesAndV1DoesNot() async throws {
            let fixture = try ServerFixture()
            defer { fixture.server.stop() }
            let pro = try await APIEndpointTests.buy(fixture, "com.example.pro")
            let coins = try await APIEndpointTests.buy(fixture, "com.example.coins100")
            func listed(_ version: String) async throws -> [String] {
                let response = try await fixture.api("GET", "/inApps/\(version)/history/\(pro)")
                let signed = try #require(try TestHTTPClient.object(response.body)["signedTransactions"] as? [String])
                return try signed.map { try #require(try APIEndpointTests.transaction($0).transactionId) }
            }
            // Bought outside the app, no device holds it: finished.
            #expect(try await listed("v2") == [pro, coins])
            #expect(try await listed("v1") == [pro])
            _ = try await fixture.control("POST", "transactions/\(coins)/refund")
            #expect(try await listed("v1") == [pro, coins], "refunded, v1 lists it")
        }
    }
#endif
