#if Server
    import Foundation
    import ReceiptKit
    import StoreServer
    import StoreSimulator
    import Testing

    @Suite struct BearerTokenTests {
        @Test func aTokenAsApplesLibrariesMakeItPasses() async throws {
            let fixture = try ServerFixture()
            defer { fixture.server.stop() }
            let response = try await fixture.api("GET", "/inApps/v1/transactions/99999")
            #expect(response.status == 404)
            #expect(try TestHTTPClient.object(response.body)["errorCode"] as? Int == 4_040_010)
        }

        @Test func badTokensAre401WithoutJSON() async throws {
            let fixture = try ServerFixture()
            defer { fixture.server.stop() }
            let other = try ES256Key.generate()
            let now = fixture.store.now
            let bad: [(String, String?)] = [
                ("no header", nil),
                ("not a JWT", "Bearer abc.def"),
                ("another key", "Bearer " + (try fixture.token(signingKey: other))),
                ("unknown kid", "Bearer " + (try fixture.token(keyID: "OTHERKEY"))),
                ("wrong issuer", "Bearer " + (try fixture.token(issuer: "someone-else"))),
                ("wrong audience", "Bearer " + (try fixture.token(audience: "appstoreconnect-v2"))),
                ("expired on the store's clock", "Bearer " + (try fixture.token(issuedAt: now - 600, lifetime: 300))),
                ("lives more than an hour", "Bearer " + (try fixture.token(lifetime: 3601))),
                ("issued in the future", "Bearer " + (try fixture.token(issuedAt: now + 3600))),
                ("HS256", "Bearer " + (try fixture.token(algorithm: "HS256"))),
            ]
            for (what, header) in bad {
                let response = try await fixture.client.send(
                    "GET", "/inApps/v1/transactions/1", headers: header.map { ["Authorization": $0] } ?? [:])
                #expect(response.status == 401, "\(what)")
                #expect(response.headers["content-type"]?.hasPrefix("application/json") != true, "\(what)")
                #expect(response.headers["x-openstorekit-auth-failure"]?.isEmpty == false, "\(what)")
            }
        }

        @Test func aReusedTokenStillExpiresOnTheStoresClock() async throws {
            let fixture = try ServerFixture()
            defer { fixture.server.stop() }
            let header = ["Authorization": "Bearer " + (try fixture.token(lifetime: 300))]
            #expect(try await fixture.client.send("GET", "/inApps/v1/transactions/1", headers: header).status == 404)
            #expect(try await fixture.client.send("GET", "/inApps/v1/transactions/1", headers: header).status == 404)
            _ = try await fixture.control("POST", "advance", #"{"seconds":301}"#)
            #expect(try await fixture.client.send("GET", "/inApps/v1/transactions/1", headers: header).status == 401)
        }

        @Test func theBundleIDIsCheckedAfterTheSignature() async throws {
            let fixture = try ServerFixture()
            defer { fixture.server.stop() }
            for (bundle, code) in [(String?.none, 4_000_002), ("com.example.other", 4_040_003)] {
                let response = try await fixture.client.send(
                    "GET", "/inApps/v1/transactions/1",
                    headers: ["Authorization": "Bearer " + (try fixture.token(bundleID: bundle))])
                #expect(response.status == code / 10_000)
                #expect(try TestHTTPClient.object(response.body)["errorCode"] as? Int == code)
            }
        }

        @Test func whitespaceAroundTheTokenIsTrimmedAndNotInsideIt() throws {
            let key = try ES256Key.generate()
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let verifier = BearerTokenVerifier(
                keys: [APIKey(keyID: "K", key: key)], issuerID: "I", bundleID: "B", now: { now })
            let token = try ServerFixture.jwt(
                header: ["alg": "ES256", "kid": "K"],
                claims: ["iss": "I", "aud": "appstoreconnect-v1", "bid": "B", "exp": 1_800_000_300], key: key)
            // Twice each: checked in full, then found among the accepted tokens.
            for value in [
                token, "  " + token, token + "\t", "\t " + token + " ", token + "\u{00A0}", token, token + " ",
            ] {
                #expect(
                    verifier.check(authorization: "Bearer " + value) == .authorized, "\(Array(value.utf8.suffix(3)))")
                #expect(
                    verifier.check(authorization: "Bearer " + value) == .authorized, "\(Array(value.utf8.suffix(3)))")
            }
            let inner = token.replacingOccurrences(of: ".", with: ". ")
            #expect(verifier.check(authorization: "Bearer " + inner) != .authorized)
            #expect(verifier.check(authorization: "Bearer " + token + "x") != .authorized)
        }

        @Test func tokensWithoutIatMayLiveAnHourFromTheStoresClock() throws {
            let key = try ES256Key.generate()
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let verifier = BearerTokenVerifier(
                keys: [APIKey(keyID: "K", key: key)], issuerID: "I", bundleID: "B", now: { now })
            func token(exp: Double) throws -> String {
                "Bearer "
                    + (try ServerFixture.jwt(
                        header: ["alg": "ES256", "kid": "K"],
                        claims: ["iss": "I", "aud": ["appstoreconnect-v1"], "bid": "B", "exp": exp], key: key))
            }
            #expect(verifier.check(authorization: try token(exp: 1_800_000_000 + 3600)) == .authorized)
            #expect(verifier.check(authorization: try token(exp: 1_800_000_000 + 3601)) != .authorized)
            #expect(verifier.check(authorization: try token(exp: 1_800_000_000)) != .authorized)
        }

        @Test func aTokenReceiptKitMintsPassesOnTheClockItWasIssuedOn() throws {
            let key = try ES256Key.generate()
            let now = Date(timeIntervalSince1970: 1_800_000_000.75)
            let verifier = BearerTokenVerifier(
                keys: [APIKey(keyID: "K", key: key)], issuerID: "I", bundleID: "B", now: { now })
            let token = ServerAPIToken(keyID: "K", issuerID: "I", bundleID: "B", issuedAt: now)
            #expect(verifier.check(authorization: "Bearer " + (try token.signed(with: key))) == .authorized)
            var longest = token
            longest.lifetime = ServerAPIToken.maximumLifetime
            #expect(verifier.check(authorization: "Bearer " + (try longest.signed(with: key))) == .authorized)
            var foreign = token
            foreign.bundleID = "other"
            #expect(
                verifier.check(authorization: "Bearer " + (try foreign.signed(with: key))) == .refused(.appNotFound))
            var expired = token
            expired.issuedAt = now - 301
            #expect(verifier.check(authorization: "Bearer " + (try expired.signed(with: key))) != .authorized)
            #expect(
                verifier.check(authorization: "Bearer " + (try token.signed(with: ES256Key.generate()))) != .authorized)
        }
    }
#endif
