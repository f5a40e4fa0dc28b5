#if Server
    import Foundation
    import ReceiptKit
    import StoreServer
    import StoreSimulator
    import Testing

    @Suite("Get App Transaction Info takes any transaction of the customer, or their app transaction identifier")
    struct AppTransactionInfoTests {
        static func appTransaction(_ fixture: ServerFixture, _ id: String) async throws -> (Int, JWSAppTransaction?) {
            let response = try await fixture.api("GET", "/inApps/v1/transactions/appTransactions/\(id)")
            guard response.status == 200 else { return (response.status, nil) }
            let jws = try #require(try TestHTTPClient.object(response.body)["signedAppTransactionInfo"] as? String)
            let verified = try APIEndpointTests.verifier.verify(
                jws, options: JWSVerificationOptions(bundleIdentifier: "com.example.app", environment: .sandbox))
            return (200, try verified.decode(JWSAppTransaction.self))
        }

        @Test func eachAccountsAppTransactionByItsTransactionOrItsOwnIdentifier() async throws {
            let fixture = try ServerFixture()
            defer { fixture.server.stop() }
            let mine = try await APIEndpointTests.buy(fixture, "com.example.pro")
            let theirs = try NotificationTypesTests.id(
                try await fixture.control("POST", "purchases", #"{"productId":"com.example.pro","account":"bob"}"#))
            let (_, first) = try await Self.appTransaction(fixture, mine)
            let (_, second) = try await Self.appTransaction(fixture, theirs)
            let mineID = try #require(first?.appTransactionId)
            let theirsID = try #require(second?.appTransactionId)
            #expect(mineID != theirsID)
            let (status, byOwnID) = try await Self.appTransaction(fixture, theirsID)
            #expect(status == 200)
            #expect(byOwnID?.appTransactionId == theirsID)
            let unknown = try await fixture.api("GET", "/inApps/v1/transactions/appTransactions/700000000000000001")
            #expect(unknown.status == 404)
            #expect(try TestHTTPClient.object(unknown.body)["errorCode"] as? Int == 4_040_010)
        }
    }
#endif
