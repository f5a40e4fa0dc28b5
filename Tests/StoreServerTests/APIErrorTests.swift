#if Server
    import Foundation
    import StoreServer
    import StoreSimulator
    import Testing

    @Suite struct APIErrorTests {
        @Test func malformedAndUnknownIdentifiersGetApplesErrors() async throws {
            let fixture = try ServerFixture()
            defer { fixture.server.stop() }
            let cases: [(String, String, Int)] = [
                ("GET", "/inApps/v1/transactions/abc", 4_000_006),
                ("GET", "/inApps/v1/transactions/123456789012345678901234", 4_000_006),
                ("GET", "/inApps/v1/transactions/424242", 4_040_010),
                ("GET", "/inApps/v2/history/424242", 4_040_010),
                ("GET", "/inApps/v1/subscriptions/424242", 4_040_010),
                ("GET", "/inApps/v2/refund/lookup/x1", 4_000_006),
                ("PUT", "/inApps/v1/subscriptions/extend/abc", 4_000_008),
                ("GET", "/inApps/v1/notifications/test/unknown-token", 4_040_008),
                ("POST", "/inApps/v1/notifications/test", 4_040_007),
            ]
            for (method, path, code) in cases {
                let response = try await fixture.api(method, path, body: method == "GET" ? nil : Array("{}".utf8))
                #expect(response.status == code / 10_000, "\(method) \(path)")
                let object = try TestHTTPClient.object(response.body)
                #expect(object["errorCode"] as? Int == code, "\(method) \(path)")
                #expect((object["errorMessage"] as? String)?.isEmpty == false, "\(method) \(path)")
            }
        }

        @Test func malformedJSONIsABadRequest() async throws {
            let fixture = try ServerFixture()
            defer { fixture.server.stop() }
            for body in ["{", "[1,2]", #"{"startDate":"yesterday"}"#, String(repeating: "[", count: 10000)] {
                let response = try await fixture.api("POST", "/inApps/v1/notifications/history", body: Array(body.utf8))
                #expect(response.status == 400)
                #expect(try TestHTTPClient.object(response.body)["errorCode"] as? Int == 4_000_000)
            }
        }

        @Test func notificationHistoryChecksItsFilters() async throws {
            let fixture = try ServerFixture()
            defer { fixture.server.stop() }
            let now = Int64(fixture.store.now.timeIntervalSince1970 * 1000)
            let cases: [(String, Int)] = [
                (#"{"endDate":\#(now)}"#, 4_000_015),
                (#"{"startDate":\#(now)}"#, 4_000_016),
                (#"{"startDate":\#(now),"endDate":\#(now)}"#, 4_000_013),
                (#"{"startDate":\#(now - 181 * 86_400_000),"endDate":\#(now)}"#, 4_000_012),
                (#"{"startDate":\#(now - 1000),"endDate":\#(now),"notificationType":"NOPE"}"#, 4_000_018),
                (#"{"startDate":\#(now - 1000),"endDate":\#(now),"notificationSubtype":"VOLUNTARY"}"#, 4_000_018),
                (
                    #"{"startDate":\#(now - 1000),"endDate":\#(now),"notificationType":"TEST","transactionId":"1"}"#,
                    4_000_019
                ),
            ]
            for (body, code) in cases {
                let response = try await fixture.api("POST", "/inApps/v1/notifications/history", body: Array(body.utf8))
                #expect(try TestHTTPClient.object(response.body)["errorCode"] as? Int == code, "\(body)")
            }
            let empty = try await fixture.api(
                "POST", "/inApps/v1/notifications/history",
                body: Array(#"{"startDate":\#(now - 1000),"endDate":\#(now)}"#.utf8))
            #expect(empty.status == 200)
            #expect(try TestHTTPClient.object(empty.body)["hasMore"] as? Bool == false)
        }

        @Test func theControlAPINeedsItsToken() async throws {
            let fixture = try ServerFixture()
            defer { fixture.server.stop() }
            let refused = try await fixture.client.send(
                "GET", "/openstorekit/v1/store", headers: ["Authorization": "Bearer " + (try fixture.token())])
            #expect(refused.status == 401)
            let store = try await fixture.control("GET", "store")
            #expect(store.status == 200)
            #expect(try TestHTTPClient.object(store.body)["bundleId"] as? String == "com.example.app")
            let unknown = try await fixture.control("POST", "purchases", #"{"productId":"nope"}"#)
            #expect(unknown.status == 404)
            let garbage = try await fixture.control("POST", "purchases", "{{{")
            #expect(garbage.status == 400)
        }
    }
#endif
