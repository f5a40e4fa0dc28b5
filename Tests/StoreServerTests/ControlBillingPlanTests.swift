#if Server
    import Foundation
    import ReceiptKit
    import StoreModels
    import StoreServer
    import StoreSimulator
    import TestSupport
    import Testing

    @Suite("The control API buys a subscription under one of its billing plans")
    struct ControlBillingPlanTests {
        static func fixture() throws -> ServerFixture {
            let configuration = try StoreConfiguration(data: BillingPlanFixture.data, sourceName: "Plans.storekit")
            return try ServerFixture(store: SimulatedStore(configuration: configuration, lane: .manual))
        }

        static func message(_ body: [UInt8]) -> String {
            let object = try? TestHTTPClient.object(body)
            return (object?["error"] as? [String: Any])?["message"] as? String ?? ""
        }

        @Test func aMonthlyPlanIsSignedWithItsCommitment() async throws {
            let fixture = try Self.fixture()
            defer { fixture.server.stop() }
            let bought = try await fixture.control(
                "POST", "purchases", #"{"productId":"\#(BillingPlanFixture.annual)","billingPlan":"MONTHLY"}"#)
            #expect(bought.status == 200, "\(Self.message(bought.body))")
            let id = try #require(try TestHTTPClient.object(bought.body)["transactionId"] as? String)
            let info = try await fixture.api("GET", "/inApps/v1/transactions/\(id)")
            let signed = try APIEndpointTests.transaction(try TestHTTPClient.object(info.body)["signedTransactionInfo"])
            #expect(signed.billingPlanType == .monthly)
            #expect(signed.commitmentInfo?.billingPeriodNumber == 1)
            #expect(signed.commitmentInfo?.totalBillingPeriods == 12)
            #expect(signed.commitmentInfo?.commitmentPrice == 119_880)
            #expect(signed.price == 9_990)
        }

        @Test func upFrontIsThePlanOfAPurchaseThatNamesNone() async throws {
            let fixture = try Self.fixture()
            defer { fixture.server.stop() }
            let bought = try await fixture.control(
                "POST", "purchases", #"{"productId":"\#(BillingPlanFixture.annual)","billingPlan":"BILLED_UPFRONT"}"#)
            #expect(bought.status == 200, "\(Self.message(bought.body))")
            let id = try #require(try TestHTTPClient.object(bought.body)["transactionId"] as? String)
            let info = try await fixture.api("GET", "/inApps/v1/transactions/\(id)")
            let signed = try APIEndpointTests.transaction(try TestHTTPClient.object(info.body)["signedTransactionInfo"])
            #expect(signed.billingPlanType == .billedUpfront)
            #expect(signed.commitmentInfo == nil)
        }

        @Test func anotherValueOrAPlanTheProductLacksIs400NamingItAndBuysNothing() async throws {
            let fixture = try Self.fixture()
            defer { fixture.server.stop() }
            let refused: [(body: String, says: String)] = [
                (#"{"productId":"\#(BillingPlanFixture.annual)","billingPlan":"WEEKLY"}"#, "billingPlan"),
                (#"{"productId":"\#(BillingPlanFixture.annual)","billingPlan":1}"#, "billingPlan"),
                (#"{"productId":"\#(BillingPlanFixture.monthly)","billingPlan":"MONTHLY"}"#, "no MONTHLY billing plan"),
            ]
            for (body, says) in refused {
                let response = try await fixture.control("POST", "purchases", body)
                #expect(response.status == 400, "\(body)")
                #expect(Self.message(response.body).contains(says), "\(body): \(Self.message(response.body))")
            }
            #expect(fixture.store.allTransactions().isEmpty)
        }
    }
#endif
