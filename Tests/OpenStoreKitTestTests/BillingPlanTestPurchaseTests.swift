import Foundation
import OpenStoreKit2
import OpenStoreKitTest
import StoreModels
import StoreSimulator
import TestSupport
import Testing

@Suite("SKTestSession.buyProduct(identifier:options:) with .billingPlanType(_:): the plan bought, or refused")
struct BillingPlanTestPurchaseTests {
    static func session() throws -> (SimulatedStore, SKTestSession) {
        let configuration = try StoreConfiguration(data: BillingPlanFixture.data, sourceName: "Plans.storekit")
        let store = SimulatedStore(configuration: configuration, lane: .manual)
        return (store, SKTestSession(store: store))
    }

    static func code(of body: () async throws -> Void) async -> SKTestError.Code? {
        await error(of: body)?.code
    }

    static func error(of body: () async throws -> Void) async -> SKTestError? {
        do {
            try await body()
            return nil
        } catch {
            return error as? SKTestError
        }
    }

    /// The fixture with a promotional offer of the annual subscription.
    static func sessionWithOffer() throws -> SKTestSession {
        let offer = """
            "adHocOffers" : [ { "displayPrice" : "99.99", "internalID" : "BP000009", "numberOfPeriods" : 1,
              "offerID" : "annual.back", "paymentMode" : "payUpFront", "referenceName" : "annual.back",
              "subscriptionPeriod" : "P1Y" } ],
            """
        // The annual subscription is listed first.
        let text = BillingPlanFixture.text()
        let range = try #require(text.range(of: "\"adHocOffers\" : [ ],"))
        let configuration = try StoreConfiguration(
            data: Data(text.replacingCharacters(in: range, with: offer).utf8), sourceName: "Plans.storekit")
        return SKTestSession(store: SimulatedStore(configuration: configuration, lane: .manual))
    }

    @Test("the monthly plan: billed a month at a time, payment 1 of 12, as a purchase in the app is")
    func monthly() async throws {
        let (_, session) = try Self.session()
        let bought = try await session.buyProduct(
            identifier: BillingPlanFixture.annual, options: [.billingPlanType(.monthly)])
        #expect(bought.billingPlanType == .monthly)
        #expect(bought.price == Decimal(string: "9.99"))
        #expect(bought.expirationDate == SubscriptionPeriod(value: 1, unit: .month).advance(bought.purchaseDate))
        let commitment = try #require(bought.commitmentInfo)
        #expect(commitment.billingPeriodNumber == 1)
        #expect(commitment.totalBillingPeriods == 12)
    }

    @Test("the up-front plan, and the monthly plan dated in the past renews month by month in its commitment")
    func upFrontAndDated() async throws {
        let (_, session) = try Self.session()
        let upFront = try await session.buyProduct(
            identifier: BillingPlanFixture.annual, options: [.billingPlanType(.upFront)])
        #expect(upFront.billingPlanType == .upFront)
        #expect(upFront.commitmentInfo == nil)
        #expect(upFront.offer?.type == .introductory)

        let (other, otherSession) = try Self.session()
        let start = other.now.addingTimeInterval(-75 * 86_400)
        let dated = try await otherSession.buyProduct(
            identifier: BillingPlanFixture.annual, options: [.billingPlanType(.monthly), .purchaseDate(start)])
        #expect(dated.billingPlanType == .monthly)
        #expect(dated.commitmentInfo?.billingPeriodNumber == 1)
        try await StoreKitEnvironment.withStore(other) {
            var numbers: [UInt64] = []
            for await result in Transaction.all(for: BillingPlanFixture.annual) {
                numbers.append(try #require(result.unsafePayloadValue.commitmentInfo).billingPeriodNumber)
            }
            #expect(numbers == [1, 2, 3])
        }
    }

    @Test("a plan the product does not offer, an unknown plan type, or two plans: invalidAction, nothing bought")
    func refused() async throws {
        let (_, session) = try Self.session()
        let lacking = await Self.code {
            try await session.buyProduct(identifier: BillingPlanFixture.monthly, options: [.billingPlanType(.monthly)])
        }
        #expect(lacking == .invalidAction)
        let unknown = await Self.code {
            try await session.buyProduct(
                identifier: BillingPlanFixture.annual, options: [.billingPlanType(.init(rawValue: "weekly"))])
        }
        #expect(unknown == .invalidAction)
        let two = await Self.code {
            try await session.buyProduct(
                identifier: BillingPlanFixture.annual,
                options: [.billingPlanType(.monthly), .billingPlanType(.upFront)])
        }
        #expect(two == .invalidAction)
        #expect(session.allTransactions().isEmpty)
        let notSubscription = await Self.error {
            try await SKTestSession(store: SimulatedStore(lane: .manual))
                .buyProduct(identifier: "com.example.pro", options: [.billingPlanType(.upFront)])
        }
        #expect(notSubscription?.code == .invalidProductType)
    }

    @Test("a monthly plan takes no offer: with promotionalOffer(id:) it is refused; up front, the offer applies")
    func monthlyWithOffer() async throws {
        let session = try Self.sessionWithOffer()
        // The promotional offer is for a customer who subscribed in the group before.
        try await session.buyProduct(identifier: BillingPlanFixture.monthly)
        let refused = await Self.error {
            try await session.buyProduct(
                identifier: BillingPlanFixture.annual,
                options: [.billingPlanType(.monthly), .promotionalOffer(id: "annual.back")])
        }
        #expect(refused?.code == .invalidAction)
        #expect(refused?.message.contains("takes no offer") == true, "\(refused?.message ?? "no error")")
        #expect(session.allTransactions().count == 1)
        let upFront = try await session.buyProduct(
            identifier: BillingPlanFixture.annual,
            options: [.billingPlanType(.upFront), .promotionalOffer(id: "annual.back")])
        #expect(upFront.billingPlanType == .upFront)
        #expect(upFront.offer?.id == "annual.back")
    }
}
