#if Server
    import Foundation
    import StoreModels
    import StoreServer
    import StoreSimulator
    import Testing

    @Suite struct ControlAPIValidationTests {
        /// The control API's error message, or "" when the body is not its error.
        private static func message(_ body: [UInt8]) -> String {
            let object = try? TestHTTPClient.object(body)
            return (object?["error"] as? [String: Any])?["message"] as? String ?? ""
        }

        @Test func fieldsOfTheWrongTypeOrOutOfRangeAre400NamingTheFieldAndChangeNothing() async throws {
            let fixture = try ServerFixture()
            defer { fixture.server.stop() }
            let bought = try await fixture.control("POST", "purchases", #"{"productId":"com.example.coins100"}"#)
            #expect(bought.status == 200)
            let id = try #require(try TestHTTPClient.object(bought.body)["transactionId"] as? String)
            let now = fixture.store.now
            let refused: [(path: String, body: String, field: String)] = [
                ("purchases", #"{"productId":"com.example.coins100","quantity":"5"}"#, "quantity"),
                ("purchases", #"{"productId":"com.example.coins100","quantity":2.5}"#, "quantity"),
                ("purchases", #"{"productId":"com.example.coins100","quantity":1e19}"#, "quantity"),
                ("purchases", #"{"productId":"com.example.coins100","quantity":true}"#, "quantity"),
                ("purchases", #"{"productId":"com.example.coins100","quantity":0}"#, "quantity"),
                ("purchases", #"{"productId":"com.example.coins100","quantity":11}"#, "quantity"),
                ("purchases", #"{"productId":7}"#, "productId"),
                ("purchases", #"{"productId":"com.example.coins100","account":false}"#, "account"),
                ("advance", #"{"seconds":-1}"#, "seconds"),
                ("advance", #"{"seconds":0}"#, "seconds"),
                ("advance", #"{"seconds":true}"#, "seconds"),
                ("advance", #"{"seconds":"60"}"#, "seconds"),
                ("advance", #"{"seconds":1.5}"#, "seconds"),
                ("advance", #"{"to":0}"#, "to"),
                ("advance", #"{"seconds":60,"to":99999999999999}"#, "seconds"),
                ("advance", #"{}"#, "seconds"),
                ("settings", #"{"billingRetryOnRenewal":1}"#, "billingRetryOnRenewal"),
                ("settings", #"{"billingGracePeriodEnabled":"yes"}"#, "billingGracePeriodEnabled"),
                ("family", #"{"family":"smiths","accounts":"alice"}"#, "accounts"),
                ("family", #"{"family":"smiths","accounts":["alice",3]}"#, "accounts"),
                ("family", #"{"family":"","accounts":["alice"]}"#, "family"),
                ("family/leave", #"{"account":5}"#, "account"),
                ("transactions/\(id)/refund", #"{"reason":99}"#, "reason"),
                ("transactions/\(id)/refund", #"{"reason":"1"}"#, "reason"),
                ("transactions/\(id)/refund-request", #"{"reason":5}"#, "reason"),
                ("transactions/\(id)/refund-request", #"{"reason":"WHATEVER"}"#, "reason"),
                ("transactions/\(id)/auto-renew", #"{"enabled":"true"}"#, "enabled"),
                ("transactions/\(id)/price-increase", #"{"action":1}"#, "action"),
                ("purchases", #"[1]"#, "JSON object"),
            ]
            for (path, body, field) in refused {
                let response = try await fixture.control("POST", path, body)
                #expect(response.status == 400, "\(path) \(body)")
                #expect(Self.message(response.body).contains(field), "\(path) \(body): \(Self.message(response.body))")
            }
            // Neither field: the answer asks for one, not for "not both".
            let neither = try await fixture.control("POST", "advance", "{}")
            #expect(neither.status == 400)
            #expect(Self.message(neither.body).contains("neither was given"), "\(Self.message(neither.body))")
            #expect(!Self.message(neither.body).contains("not both"))
            // Nothing was bought, refunded or moved.
            #expect(fixture.store.allTransactions().count == 1)
            #expect(fixture.store.now == now)
            #expect(fixture.store.transaction(try #require(UInt64(id)))?.cancellationDate == nil)
            // What is right is still done.
            let advanced = try await fixture.control("POST", "advance", #"{"seconds":60}"#)
            #expect(advanced.status == 200)
            #expect(fixture.store.now == now.addingTimeInterval(60))
            let to = Int64((now.timeIntervalSince1970 + 120) * 1000)
            #expect(try await fixture.control("POST", "advance", #"{"to":\#(to)}"#).status == 200)
            #expect(fixture.store.now == now.addingTimeInterval(120))
            let three = try await fixture.control(
                "POST", "purchases", #"{"productId":"com.example.coins100","quantity":3}"#)
            #expect(three.status == 200)
            #expect(try await fixture.control("POST", "transactions/\(id)/refund", #"{"reason":1}"#).status == 200)
        }

        @Test func aRepeatedAuthorizationHeaderOrAControlCharacterInThePathIs400() throws {
            let fixture = try ServerFixture()
            defer { fixture.server.stop() }
            let twice = try RawSocket(port: fixture.server.port)
            twice.send(
                "GET /openstorekit/v1/store HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer wrong\r\n"
                    + "Authorization: Bearer control-token\r\n\r\n")
            #expect(String(decoding: twice.readAll(), as: UTF8.self).hasPrefix("HTTP/1.1 400"))
            let nul = try RawSocket(port: fixture.server.port)
            nul.send(
                "GET /openstorekit/v1/store%00/more HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer control-token\r\n\r\n")
            #expect(String(decoding: nul.readAll(), as: UTF8.self).hasPrefix("HTTP/1.1 400"))
        }
    }
#endif
