#if Server
    import Foundation
    import ReceiptKit
    import StoreModels
    import StoreServer
    import StoreSimulator
    import TestSupport
    import Testing

    /// The Retention Messaging API: images, messages, default messages, the real-time URL, performance tests, and the
    /// real-time flow a customer opening a subscription's cancellation flow starts.
    @Suite struct RetentionMessagingTests {
        static let monthly = "com.example.premium.monthly"
        static let image = "a1a1a1a1-0000-4000-8000-000000000001"
        static let bullet = "a1a1a1a1-0000-4000-8000-000000000002"
        static let message = "b2b2b2b2-0000-4000-8000-000000000001"
        static let fallback = "b2b2b2b2-0000-4000-8000-000000000002"

        /// A PNG's signature, header and end (what the store reads of it), of a color type: 2 is RGB, 6 RGBA.
        static func png(width: Int, height: Int, colorType: UInt8 = 2) -> [UInt8] {
            func bigEndian(_ value: Int) -> [UInt8] {
                (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
            }
            func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
                bigEndian(data.count) + Array(type.utf8) + data + [0, 0, 0, 0]
            }
            return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
                + chunk("IHDR", bigEndian(width) + bigEndian(height) + [8, colorType, 0, 0, 0]) + chunk("IEND", [])
        }

        static func errorCode(_ response: (status: Int, headers: [String: String], body: [UInt8])) throws -> Int? {
            try TestHTTPClient.object(response.body)["errorCode"] as? Int
        }

        static func put(_ fixture: ServerFixture, _ path: String, _ body: [UInt8]) async throws -> (
            status: Int, headers: [String: String], body: [UInt8]
        ) {
            try await fixture.api("PUT", "/inApps/v1/messaging/" + path, body: body)
        }

        static func put(_ fixture: ServerFixture, _ path: String, json: String) async throws -> (
            status: Int, headers: [String: String], body: [UInt8]
        ) {
            try await put(fixture, path, Array(json.utf8))
        }

        /// Uploads a full-size image, a bullet-point image, a message showing both and a plain message.
        static func setUp(_ fixture: ServerFixture) async throws {
            #expect(try await put(fixture, "image/\(image)", png(width: 3840, height: 160)).status == 200)
            #expect(
                try await put(fixture, "image/\(bullet)?imageSize=BULLET_POINT", png(width: 64, height: 64)).status
                    == 200)
            let body = #"""
                {"header":"Before you go","body":"Here is what you would miss.",
                 "image":{"imageIdentifier":"\#(image)","altText":"The app"},
                 "bulletPoints":[{"text":"Every feature","imageIdentifier":"\#(bullet)","altText":"A check"}]}
                """#
            #expect(try await put(fixture, "message/\(message)", json: body).status == 200)
            #expect(
                try await put(fixture, "message/\(fallback)", json: #"{"header":"We miss you","body":"Stay."}"#).status
                    == 200)
        }

        @Test func imagesAreCheckedAsPNGsOfApplesSizesAndListedWithTheirStates() async throws {
            let fixture = try ServerFixture()
            defer { fixture.server.stop() }
            try await Self.setUp(fixture)
            let list = try TestHTTPClient.object(try await fixture.api("GET", "/inApps/v1/messaging/image/list").body)
            let items = try #require(list["imageIdentifiers"] as? [[String: Any]])
            #expect(items.map { $0["imageIdentifier"] as? String } == [Self.image, Self.bullet])
            #expect(items.map { $0["imageState"] as? String } == ["APPROVED", "APPROVED"])
            #expect(items.map { $0["imageSize"] as? String } == ["FULL_SIZE", "BULLET_POINT"])

            let fresh = "c3c3c3c3-0000-4000-8000-000000000001"
            for (path, body, status, code) in [
                ("image/\(Self.image)", Self.png(width: 3840, height: 160), 409, 4_090_000),
                ("image/\(fresh)", Array("GIF89a".utf8), 400, 4_000_161),
                ("image/\(fresh)", Self.png(width: 3840, height: 160, colorType: 6), 400, 4_000_161),
                ("image/\(fresh)", Self.png(width: 1920, height: 160), 400, 4_000_161),
                ("image/\(fresh)", Self.png(width: 3840, height: 159), 400, 4_000_161),
                ("image/\(fresh)", Self.png(width: 3840, height: 2161), 400, 4_000_161),
                ("image/\(fresh)?imageSize=HUGE", Self.png(width: 3840, height: 160), 400, 4_000_216),
                ("image/not-a-uuid", Self.png(width: 3840, height: 160), 400, 4_000_000),
            ] {
                let response = try await Self.put(fixture, path, body)
                #expect(response.status == status, "\(path)")
                #expect(try Self.errorCode(response) == code, "\(path)")
            }
            let inUse = try await fixture.api("DELETE", "/inApps/v1/messaging/image/\(Self.image)")
            #expect(inUse.status == 403)
            #expect(try Self.errorCode(inUse) == 4_030_019)
            #expect(try await fixture.api("DELETE", "/inApps/v1/messaging/message/\(Self.message)").status == 200)
            #expect(try await fixture.api("DELETE", "/inApps/v1/messaging/image/\(Self.image)").status == 200)
            let gone = try await fixture.api("DELETE", "/inApps/v1/messaging/image/\(Self.image)")
            #expect(gone.status == 404)
            #expect(try Self.errorCode(gone) == 4_040_014)
        }

        @Test func messagesHaveApplesLimitsAndErrors() async throws {
            let fixture = try ServerFixture()
            defer { fixture.server.stop() }
            try await Self.setUp(fixture)
            let list = try TestHTTPClient.object(try await fixture.api("GET", "/inApps/v1/messaging/message/list").body)
            let items = try #require(list["messageIdentifiers"] as? [[String: Any]])
            #expect(items.map { $0["messageIdentifier"] as? String } == [Self.message, Self.fallback])
            #expect(items.map { $0["messageState"] as? String } == ["APPROVED", "APPROVED"])

            let fresh = "c3c3c3c3-0000-4000-8000-000000000002"
            let long = { (count: Int) in String(repeating: "é", count: count) }
            let point = { (text: String) in
                #"{"text":"\#(text)","imageIdentifier":"\#(Self.bullet)","altText":"a"}"#
            }
            for (body, status, code) in [
                (#"{"header":"\#(long(67))","body":"b"}"#, 400, 4_000_162),
                (#"{"header":"h","body":"\#(long(145))"}"#, 400, 4_000_163),
                (
                    #"{"header":"h","body":"b","image":{"imageIdentifier":"\#(Self.image)","altText":"\#(long(151))"}}"#,
                    400, 4_000_175
                ),
                (
                    #"{"header":"h","body":"b","bulletPoints":[\#(Array(repeating: point("x"), count: 6).joined(separator: ","))]}"#,
                    400, 4_000_218
                ),
                (#"{"header":"h","body":"b","bulletPoints":[\#(point(long(67)))]}"#, 400, 4_000_219),
                (#"{"header":"h","body":"b","headerPosition":"ABOVE_IMAGE"}"#, 400, 4_000_224),
                (#"{"header":"h","body":"b","image":{"imageIdentifier":"\#(fresh)","altText":"a"}}"#, 404, 4_040_014),
                (
                    #"{"header":"h","body":"b","image":{"imageIdentifier":"\#(Self.bullet)","altText":"a"}}"#, 400,
                    4_000_216
                ),
                (#"{"header":"h"}"#, 400, 4_000_000),
                (#"not json"#, 400, 4_000_000),
            ] {
                let response = try await Self.put(fixture, "message/\(fresh)", json: body)
                #expect(response.status == status, "\(body)")
                #expect(try Self.errorCode(response) == code, "\(body)")
            }
            // At the limits: 66 characters of header, 144 of body.
            let fits = #"{"header":"\#(long(66))","body":"\#(long(144))"}"#
            #expect(try await Self.put(fixture, "message/\(fresh)", json: fits).status == 200)
            let again = try await Self.put(fixture, "message/\(fresh)", json: fits)
            #expect(again.status == 409)
            #expect(try Self.errorCode(again) == 4_090_001)
        }

        @Test func defaultMessagesArePerProductAndLocaleAndMustBeApproved() async throws {
            let fixture = try ServerFixture()
            defer { fixture.server.stop() }
            try await Self.setUp(fixture)
            let path = "default/\(Self.monthly)/en-US"
            let missing = try await fixture.api("GET", "/inApps/v1/messaging/\(path)")
            #expect(missing.status == 404)
            #expect(try Self.errorCode(missing) == 4_040_020)
            for (target, id, status, code) in [
                ("default/\(Self.monthly)/not!a!locale", Self.fallback, 400, 4_000_164),
                ("default/com.example.pro/en-US", Self.fallback, 400, 4_000_023),
                (path, "c3c3c3c3-0000-4000-8000-000000000003", 404, 4_040_015),
            ] {
                let response = try await Self.put(fixture, target, json: #"{"messageIdentifier":"\#(id)"}"#)
                #expect(response.status == status, "\(target)")
                #expect(try Self.errorCode(response) == code, "\(target)")
            }
            // A rejected message, then a message whose image was rejected, cannot be the default.
            _ = try await fixture.control(
                "POST", "retention/review", #"{"identifier":"\#(Self.fallback)","state":"REJECTED"}"#)
            let rejected = try await Self.put(fixture, path, json: #"{"messageIdentifier":"\#(Self.fallback)"}"#)
            #expect(rejected.status == 403)
            #expect(try Self.errorCode(rejected) == 4_030_017)
            _ = try await fixture.control(
                "POST", "retention/review", #"{"identifier":"\#(Self.image)","state":"PENDING"}"#)
            let pendingImage = try await Self.put(fixture, path, json: #"{"messageIdentifier":"\#(Self.message)"}"#)
            #expect(pendingImage.status == 403)
            #expect(try Self.errorCode(pendingImage) == 4_030_018)

            _ = try await fixture.control(
                "POST", "retention/review", #"{"identifier":"\#(Self.fallback)","state":"APPROVED"}"#)
            #expect(
                try await Self.put(fixture, path, json: #"{"messageIdentifier":"\#(Self.fallback)"}"#).status == 200)
            let got = try TestHTTPClient.object(try await fixture.api("GET", "/inApps/v1/messaging/\(path)").body)
            #expect(got["messageIdentifier"] as? String == Self.fallback)
            #expect(try await fixture.api("DELETE", "/inApps/v1/messaging/\(path)").status == 200)
            let deleted = try await fixture.api("DELETE", "/inApps/v1/messaging/\(path)")
            #expect(deleted.status == 404)
            #expect(try Self.errorCode(deleted) == 4_040_020)
        }

        @Test func theRealtimeURLIsConfiguredReadAndDeleted() async throws {
            let fixture = try ServerFixture()
            defer { fixture.server.stop() }
            let missing = try await fixture.api("GET", "/inApps/v1/messaging/realtime/url")
            #expect(missing.status == 404)
            #expect(try Self.errorCode(missing) == 4_040_021)
            for bad in [
                #"{"realtimeURL":"ftp://example.com/x"}"#, #"{"realtimeURL":"not a url"}"#, "{}",
                #"{"realtimeURL":"https://example.com/\#(String(repeating: "a", count: 240))"}"#,
            ] {
                let response = try await Self.put(fixture, "realtime/url", json: bad)
                #expect(response.status == 400, "\(bad)")
                #expect(try Self.errorCode(response) == 4_000_215, "\(bad)")
            }
            #expect(
                try await Self.put(fixture, "realtime/url", json: #"{"realtimeURL":"https://example.com/r"}"#).status
                    == 200)
            let got = try TestHTTPClient.object(try await fixture.api("GET", "/inApps/v1/messaging/realtime/url").body)
            #expect(got["realtimeURL"] as? String == "https://example.com/r")
            #expect(try await fixture.api("DELETE", "/inApps/v1/messaging/realtime/url").status == 200)
            #expect(try await fixture.api("DELETE", "/inApps/v1/messaging/realtime/url").status == 404)
        }

        /// Opens the cancellation flow of `original` through the control API; returns what was shown.
        static func openFlow(_ fixture: ServerFixture, _ original: String, locale: String = "en-US") async throws
            -> [String: Any]
        {
            let response = try await fixture.control(
                "POST", "retention/cancellation-flow",
                #"{"originalTransactionId":"\#(original)","locale":"\#(locale)"}"#)
            #expect(response.status == 200)
            return try TestHTTPClient.object(response.body)
        }

        /// The payload of a real-time request, verified with the store's root.
        struct RealtimePayload: Decodable {
            let originalTransactionId: String
            let appAppleId: Int64
            let productId: String
            let userLocale: String
            let requestIdentifier: String
            let signedDate: Int64
            let environment: String
        }

        @Test func theBackendsChoiceIsShownWhenValidElseTheDefault() async throws {
            let endpoint = try RetentionEndpoint(answer: #"{"message":{"messageIdentifier":"\#(Self.message)"}}"#)
            let fixture = try ServerFixture()
            defer { fixture.server.stop() }
            try await Self.setUp(fixture)
            let original = try await APIEndpointTests.buy(fixture, Self.monthly)
            // Nothing configured: nothing shown, and no request sent.
            #expect(try await Self.openFlow(fixture, original)["source"] as? String == "none")
            #expect(endpoint.signedPayloads.isEmpty)

            #expect(
                try await Self.put(fixture, "realtime/url", json: #"{"realtimeURL":"\#(endpoint.url.absoluteString)"}"#)
                    .status == 200)
            #expect(
                try await Self.put(
                    fixture, "default/\(Self.monthly)/en-US", json: #"{"messageIdentifier":"\#(Self.fallback)"}"#
                ).status == 200)
            let chosen = try await Self.openFlow(fixture, original)
            #expect(chosen["source"] as? String == "realtime")
            #expect(chosen["messageIdentifier"] as? String == Self.message)
            let signed = try #require(endpoint.signedPayloads.last)
            let payload = try APIEndpointTests.verifier.verify(
                signed, options: JWSVerificationOptions(environment: .sandbox)
            ).decode(RealtimePayload.self)
            #expect(payload.originalTransactionId == original)
            #expect(payload.productId == Self.monthly)
            #expect(payload.userLocale == "en-US")
            #expect(payload.environment == "Sandbox")
            #expect(payload.requestIdentifier == chosen["requestIdentifier"] as? String)
            #expect(payload.signedDate == JWSDate(fixture.store.now).millisecondsSince1970)

            // Garbage, an unknown message, another group's product, an offer's message with an image: the default is shown.
            let other = "c3c3c3c3-0000-4000-8000-000000000004"
            for (answer, failure) in [
                ("not json", "INVALID_RESPONSE"),
                (#"{"message":{"messageIdentifier":"\#(other)"}}"#, "no message \(other)"),
                (#"{"message":{}}"#, "INVALID_RESPONSE"),
                (
                    #"{"alternateProduct":{"messageIdentifier":"\#(Self.fallback)","productId":"com.example.pro"}}"#,
                    "com.example.pro is not another subscription of the group of \(Self.monthly)"
                ),
                (
                    #"{"promotionalOffer":{"messageIdentifier":"\#(Self.message)","promotionalOfferSignatureV2":"x"}}"#,
                    "the message \(Self.message) has an image or bullet points: a switch-plan or promotional-offer "
                        + "message is text only"
                ),
            ] {
                endpoint.answer(answer)
                let shown = try await Self.openFlow(fixture, original)
                #expect(shown["source"] as? String == "default", "\(answer)")
                #expect(shown["messageIdentifier"] as? String == Self.fallback, "\(answer)")
                #expect(shown["failure"] as? String == failure, "\(answer)")
            }
            endpoint.answer(
                #"{"promotionalOffer":{"messageIdentifier":"\#(Self.fallback)","promotionalOfferSignatureV2":"x.y.z"}}"#
            )
            let offer = try await Self.openFlow(fixture, original)
            #expect(offer["source"] as? String == "realtime")
            #expect(offer["promotionalOffer"] as? Bool == true)

            // No default in another locale: nothing.
            endpoint.answer("not json")
            #expect(try await Self.openFlow(fixture, original, locale: "fr-FR")["source"] as? String == "none")

            // The store recorded each, in order.
            let shown = fixture.store.retentionMessaging.shown
            #expect(
                shown.map(\.source) == [
                    .none, .realtime, .defaultMessage, .defaultMessage, .defaultMessage,
                    .defaultMessage, .defaultMessage, .realtime, .none,
                ])
            let listed = try await fixture.control("GET", "retention/shown")
            #expect((try JSONSerialization.jsonObject(with: Data(listed.body)) as? [Any])?.count == 9)

            // A transaction that is not a subscription's original transaction.
            let pro = try await APIEndpointTests.buy(fixture, "com.example.pro")
            let refused = try await fixture.control(
                "POST", "retention/cancellation-flow", #"{"originalTransactionId":"\#(pro)"}"#)
            #expect(refused.status == 404)
        }

        @Test func anEndpointThatNeverAnswersTimesOutAndTheDefaultIsShown() async throws {
            let (listener, port) = try LoopbackListener.open()
            defer { close(listener) }
            let fixture = try ServerFixture(realtimeTimeout: 0.2)
            defer { fixture.server.stop() }
            try await Self.setUp(fixture)
            let original = try await APIEndpointTests.buy(fixture, Self.monthly)
            #expect(
                try await Self.put(fixture, "realtime/url", json: #"{"realtimeURL":"http://127.0.0.1:\#(port)/r"}"#)
                    .status == 200)
            #expect(
                try await Self.put(
                    fixture, "default/\(Self.monthly)/en-US", json: #"{"messageIdentifier":"\#(Self.fallback)"}"#
                ).status == 200)
            let shown = try await Self.openFlow(fixture, original)
            #expect(shown["source"] as? String == "default")
            #expect(shown["failure"] as? String == "TIMED_OUT")
            #expect(shown["messageIdentifier"] as? String == Self.fallback)
        }

        @Test func aPerformanceTestReportsApplesResultShape() async throws {
            let endpoint = try RetentionEndpoint(answer: #"{"message":{"messageIdentifier":"\#(Self.message)"}}"#)
            let fixture = try ServerFixture()
            defer { fixture.server.stop() }
            let original = try await APIEndpointTests.buy(fixture, Self.monthly)
            let body = Array(#"{"originalTransactionId":"\#(original)"}"#.utf8)
            let noURL = try await fixture.api("POST", "/inApps/v1/messaging/performanceTest", body: body)
            #expect(noURL.status == 404)
            #expect(try Self.errorCode(noURL) == 4_040_021)
            #expect(
                try await Self.put(fixture, "realtime/url", json: #"{"realtimeURL":"\#(endpoint.url.absoluteString)"}"#)
                    .status == 200)
            let bad = try await fixture.api(
                "POST", "/inApps/v1/messaging/performanceTest", body: Array(#"{"originalTransactionId":"12"}"#.utf8))
            #expect(try Self.errorCode(bad) == 4_000_211)

            let started = try TestHTTPClient.object(
                try await fixture.api("POST", "/inApps/v1/messaging/performanceTest", body: body).body)
            let requestID = try #require(started["requestId"] as? String)
            let config = try #require(started["config"] as? [String: Any])
            #expect(config["totalRequests"] as? Int == 5)
            #expect(endpoint.signedPayloads.count == 5)
            let result = try TestHTTPClient.object(
                try await fixture.api("GET", "/inApps/v1/messaging/performanceTest/result/\(requestID)").body)
            #expect(result["result"] as? String == "PASS")
            #expect(result["successRate"] as? Int == 100)
            #expect(result["numPending"] as? Int == 0)
            #expect(result["target"] as? String == endpoint.url.absoluteString)
            #expect((result["responseTimes"] as? [String: Any])?["p99"] is Int)

            endpoint.answer("garbage")
            let failing = try TestHTTPClient.object(
                try await fixture.api("POST", "/inApps/v1/messaging/performanceTest", body: body).body)
            let failed = try TestHTTPClient.object(
                try await fixture.api(
                    "GET",
                    "/inApps/v1/messaging/performanceTest/result/\(try #require(failing["requestId"] as? String))"
                ).body)
            #expect(failed["result"] as? String == "FAIL")
            #expect((failed["failures"] as? [String: Any])?["INVALID_RESPONSE"] as? Int == 5)

            let unknown = try await fixture.api(
                "GET", "/inApps/v1/messaging/performanceTest/result/c3c3c3c3-0000-4000-8000-000000000005")
            #expect(unknown.status == 404)
            #expect(try Self.errorCode(unknown) == 4_040_018)
            let invalid = try await fixture.api("GET", "/inApps/v1/messaging/performanceTest/result/nope")
            #expect(try Self.errorCode(invalid) == 4_000_212)
        }
    }
#endif
