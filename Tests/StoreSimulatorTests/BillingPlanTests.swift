import Foundation
import Ledger
import ReceiptKit
import StoreModels
import TestSupport
import Testing

@testable import StoreSimulator

@Suite("Billing plans: a yearly subscription billed up front, or monthly with a twelve-month commitment")
struct BillingPlanTests {
    static let annual = BillingPlanFixture.annual
    static let monthly = BillingPlanFixture.monthly
    static let group = BillingPlanFixture.groupID

    static func configuration() throws -> StoreConfiguration {
        try StoreConfiguration(data: BillingPlanFixture.data, sourceName: "Plans.storekit")
    }

    static func store() throws -> SimulatedStore {
        SimulatedStore(configuration: try configuration(), lane: .manual)
    }

    /// Submits a payment on a device and lets the store decide it.
    static func pay(_ request: PaymentRequest, in store: SimulatedStore) -> DeviceTransaction? {
        let (connection, listener) = store.silentConnection("phone")
        let id = connection.submit(request)
        store.runUntilIdle()
        defer { withExtendedLifetime(listener) {} }
        return connection.unfinishedTransaction(id)
    }

    static func months(_ count: Int, after date: Date) -> Date {
        SubscriptionPeriod(value: count, unit: .month).advance(date)
    }

    // MARK: Loading

    @Test("billingPlans load with each plan's price and commitment price; a subscription that names none has one")
    func loads() throws {
        let catalog = try Self.configuration().catalog
        let info = try #require(catalog.product(Self.annual)?.subscription)
        #expect(info.billingPlans.map(\.kind) == [.upFront, .monthly])
        let monthly = try #require(info.plan(.monthly, price: 119.99))
        #expect(monthly.price == Decimal(string: "9.99"))
        #expect(monthly.commitmentPrice == Decimal(string: "119.88"))
        #expect(monthly.totalBillingPeriods == 12)
        #expect(info.plan(.upFront, price: 119.99)?.price == Decimal(string: "119.99"))
        let plain = try #require(catalog.product(Self.monthly)?.subscription)
        #expect(plain.billingPlans.isEmpty)
        #expect(plain.plans(price: 12.99) == [BillingPlan(kind: .upFront, price: 12.99)])
        #expect(plain.plan(.monthly, price: 12.99) == nil)
    }

    @Test("A disabled plan is left out; a plan without commitmentDisplayPrice commits to twelve monthly prices")
    func disabledAndDefaultCommitment() throws {
        let plans = """
            [ { "billingPlanType" : "BILLED_UPFRONT", "displayPrice" : "119.99", "isEnabled" : false },
              { "billingPlanType" : "MONTHLY", "displayPrice" : "10" } ]
            """
        let configuration = try StoreConfiguration(
            data: Data(BillingPlanFixture.text(plans: plans).utf8), sourceName: "Plans.storekit")
        let info = try #require(configuration.catalog.product(Self.annual)?.subscription)
        #expect(info.billingPlans == [BillingPlan(kind: .monthly, price: 10, commitmentPrice: 120)])
    }

    @Test(
        "A bad billing plan is refused with an error naming the file and the field",
        arguments: [
            (
                #"[ { "billingPlanType" : "WEEKLY", "displayPrice" : "1" } ]"#, "P1Y",
                "billingPlans[0].billingPlanType", "unknown billing plan type \"WEEKLY\""
            ),
            (
                #"[ { "billingPlanType" : "MONTHLY", "displayPrice" : "1" } ]"#, "P6M",
                "billingPlans[0].billingPlanType", "this subscription's period is P6M, not P1Y"
            ),
            (
                #"[ { "billingPlanType" : "MONTHLY", "displayPrice" : "1" }, "#
                    + #"{ "billingPlanType" : "MONTHLY", "displayPrice" : "2" } ]"#, "P1Y",
                "billingPlans[1].billingPlanType", "a second MONTHLY billing plan"
            ),
            (
                #"[ { "billingPlanType" : "MONTHLY", "displayPrice" : "nine" } ]"#, "P1Y",
                "billingPlans[0].displayPrice", "expected a price"
            ),
            (
                #"[ { "billingPlanType" : "MONTHLY", "displayPrice" : "9", "commitmentDisplayPrice" : 108 } ]"#, "P1Y",
                "billingPlans[0].commitmentDisplayPrice", "expected a string"
            ),
            (#"[ { "displayPrice" : "9" } ]"#, "P1Y", "billingPlans[0]", "billingPlanType"),
        ])
    func refusesBadPlans(plans: String, period: String, field: String, message: String) {
        let text = BillingPlanFixture.text(plans: plans, period: period)
        do {
            _ = try StoreConfiguration(data: Data(text.utf8), sourceName: "Plans.storekit")
            Issue.record("loaded \(plans)")
        } catch {
            #expect(error.code == .invalidConfiguration)
            #expect(
                error.detail.contains("Plans.storekit: subscriptionGroups[0].subscriptions[0].\(field)"), "\(error)")
            #expect(error.detail.contains(message), "\(error)")
        }
    }

    @Test("The billing plans of the format-5 file Xcode wrote load", .requiresSharedData)
    func sharedSample() throws {
        let configuration = try StoreConfiguration(
            contentsOf: SharedData.storeKitSample("revenuecat-UnitTestsConfiguration.v5.storekit"))
        let catalog = configuration.catalog
        let committed = try #require(catalog.product("com.revenuecat.annual_with_commitment")?.subscription)
        #expect(committed.billingPlans.map(\.kind) == [.upFront, .monthly])
        #expect(committed.billingPlans.last?.price == Decimal(string: "0.5"))
        #expect(committed.billingPlans.last?.commitmentPrice == Decimal(string: "6.00"))
        let plain = try #require(catalog.product("com.revenuecat.annual_39.99_no_trial")?.subscription)
        #expect(plain.billingPlans == [BillingPlan(kind: .upFront, price: Decimal(string: "39.99")!)])
    }

    // MARK: Purchases

    @Test("A monthly plan bills 9.99 for one month and signs its place in a twelve-month commitment")
    func monthlyPurchase() throws {
        let store = try Self.store()
        let transaction = try #require(
            Self.pay(PaymentRequest(productID: Self.annual, billingPlan: .monthly), in: store))
        #expect(transaction.state == .purchased)
        let record = try #require(transaction.recordID.flatMap { store.transaction($0) })
        #expect(record.billingPlan == .monthly)
        #expect(record.expirationDate == Self.months(1, after: record.purchaseDate))
        #expect(!record.isTrialPeriod, "a monthly plan applies no introductory offer")
        #expect(
            record.commitment
                == BillingCommitment(
                    billingPeriodNumber: 1, totalBillingPeriods: 12,
                    expirationDate: Self.months(12, after: record.purchaseDate)))
        let payload = try store.signedTransactionValue(record.id).payload
        #expect(payload.billingPlanType == .monthly)
        #expect(payload.price == 9990)
        #expect(payload.offerType == nil)
        #expect(payload.commitmentInfo?.billingPeriodNumber == 1)
        #expect(payload.commitmentInfo?.totalBillingPeriods == 12)
        #expect(payload.commitmentInfo?.commitmentPrice == 119_880)
        #expect(payload.commitmentInfo?.commitmentExpiresDate == JWSDate(Self.months(12, after: record.purchaseDate)))
    }

    @Test("Billed monthly, the subscription renews each month at 9.99 through twelve periods, then a new commitment")
    func monthlyRenewals() throws {
        let store = try Self.store()
        let first = try #require(
            Self.pay(PaymentRequest(productID: Self.annual, billingPlan: .monthly), in: store)?.recordID
                .flatMap { store.transaction($0) })
        try store.advance(to: Self.months(13, after: first.purchaseDate).addingTimeInterval(60))
        let periods = store.transactions().filter { $0.originalID == first.id }
            .sorted { $0.purchaseDate < $1.purchaseDate }
        #expect(periods.count == 14)
        #expect(periods.map { $0.commitment?.billingPeriodNumber } == Array(1...12) + [1, 2])
        #expect(periods.allSatisfy { $0.billingPlan == .monthly })
        for (index, period) in periods.enumerated() {
            #expect(period.purchaseDate == Self.months(index, after: first.purchaseDate))
            #expect(period.expirationDate == Self.months(index + 1, after: first.purchaseDate))
            #expect(store.amountCharged(forTransaction: period.id) == Decimal(string: "9.99"))
        }
        let firstCommitmentEnd = Self.months(12, after: first.purchaseDate)
        #expect(periods[11].commitment?.expirationDate == firstCommitmentEnd)
        #expect(periods[12].commitment?.expirationDate == Self.months(24, after: first.purchaseDate))
        let renewal = try store.signedTransactionValue(periods[12].id).payload
        #expect(renewal.transactionReason == .renewal)
        #expect(renewal.commitmentInfo?.billingPeriodNumber == 1)
    }

    @Test("Renewal info of a subscription billed monthly: the monthly plan and price, and the commitment's end")
    func renewalInfo() throws {
        let store = try Self.store()
        let first = try #require(
            Self.pay(PaymentRequest(productID: Self.annual, billingPlan: .monthly), in: store)?.recordID
                .flatMap { store.transaction($0) })
        let payload = try store.signedRenewalInfoValue(groupID: Self.group).payload
        #expect(payload.renewalBillingPlanType == .monthly)
        #expect(payload.renewalPrice == 9990)
        #expect(payload.renewalDate == JWSDate(Self.months(1, after: first.purchaseDate)))
        let commitment = try #require(payload.commitmentInfo)
        #expect(commitment.commitmentRenewalDate == JWSDate(Self.months(12, after: first.purchaseDate)))
        #expect(commitment.commitmentRenewalPrice == 119_880)
        #expect(commitment.commitmentRenewalBillingPlanType == .monthly)
        #expect(commitment.commitmentAutoRenewProductId == Self.annual)
        #expect(commitment.commitmentAutoRenewStatus == .on)
        try store.expireSubscription(productID: Self.annual)
        let expired = try store.signedRenewalInfoValue(groupID: Self.group).payload
        #expect(expired.commitmentInfo == nil, "no commitment runs once the subscription expired")
    }

    @Test("Without a plan, a subscription with billing plans is billed up front, with its introductory offer")
    func upFrontByDefault() throws {
        let store = try Self.store()
        let record = try #require(
            Self.pay(PaymentRequest(productID: Self.annual), in: store)?.recordID.flatMap { store.transaction($0) })
        #expect(record.billingPlan == .upFront)
        #expect(record.commitment == nil)
        #expect(record.isTrialPeriod)
        let payload = try store.signedTransactionValue(record.id).payload
        #expect(payload.billingPlanType == .billedUpfront)
        #expect(payload.commitmentInfo == nil)
        #expect(try store.signedRenewalInfoValue(groupID: Self.group).payload.renewalBillingPlanType == .billedUpfront)
        #expect(try store.signedRenewalInfoValue(groupID: Self.group).payload.commitmentInfo == nil)
    }

    @Test("A subscription whose configuration names no plans signs no billing plan")
    func noPlans() throws {
        let store = try Self.store()
        let record = try #require(
            Self.pay(PaymentRequest(productID: Self.monthly), in: store)?.recordID.flatMap { store.transaction($0) })
        #expect(record.billingPlan == nil)
        #expect(try store.signedTransactionValue(record.id).payload.billingPlanType == nil)
        #expect(try store.signedRenewalInfoValue(groupID: Self.group).payload.renewalBillingPlanType == nil)
    }

    @Test("A plan the product does not offer, or an offer with a monthly plan, fails the purchase")
    func refusals() throws {
        let store = try Self.store()
        let unoffered = Self.pay(PaymentRequest(productID: Self.monthly, billingPlan: .monthly), in: store)
        #expect(unoffered?.state == .failed)
        #expect(unoffered?.failure?.code == .paymentInvalid)
        #expect(unoffered?.failure?.message.contains("offers no MONTHLY billing plan") == true)
        let withOffer = Self.pay(
            PaymentRequest(productID: Self.annual, winBackOfferID: "none", billingPlan: .monthly), in: store)
        #expect(withOffer?.failure?.code == .invalidOfferIdentifier)
        #expect(store.subscription(groupID: Self.group) == nil)
    }

    @Test("A state file keeps a payment's plan and each period's commitment")
    func durable() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        var store = try SimulatedStore(statePath: path, configuration: try Self.configuration(), lane: .manual)
        let id = try #require(
            Self.pay(PaymentRequest(productID: Self.annual, billingPlan: .monthly), in: store)?.id)
        try store.advance(by: 40 * 86_400)
        let before = store.transactions()
        #expect(before.count == 2)
        try store.close()
        store = try SimulatedStore(statePath: path, lane: .manual)
        #expect(store.transactions() == before)
        #expect(store.transactions().last?.commitment?.billingPeriodNumber == 2)
        #expect(store.unfinishedTransactions(deviceID: "phone").first { $0.id == id }?.payment.billingPlan == .monthly)
        #expect(store.catalog.product(Self.annual)?.subscription?.billingPlans.count == 2)
    }

    @Test("A compacted row keeps a prorated refund's share and the billing plan after it, and a share without a plan")
    func compactedRowWithShareAndPlan() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        var store = try SimulatedStore(statePath: path, configuration: try Self.configuration(), lane: .manual)
        let monthly = try #require(
            Self.pay(PaymentRequest(productID: Self.annual, billingPlan: .monthly), in: store)?.recordID)
        try store.refund(monthly, percentage: 25_000)
        let upFront = try #require(Self.pay(PaymentRequest(productID: Self.annual), in: store)?.recordID)
        try store.refund(upFront, percentage: 50_000)
        try store.compact()
        let before = store.transactions()
        try store.close()
        store = try SimulatedStore(statePath: path, lane: .manual)
        #expect(store.transactions() == before)
        #expect(store.transaction(monthly)?.revocationPercentage == 25_000)
        #expect(store.transaction(monthly)?.billingPlan == .monthly)
        #expect(store.transaction(monthly)?.commitment?.billingPeriodNumber == 1)
        #expect(store.transaction(upFront)?.revocationPercentage == 50_000)
        #expect(store.transaction(upFront)?.commitment == nil)
        try store.close()
    }

    @Test("A compacted state file keeps a commitment in the record's row, and refuses one out of its range")
    func compactedRows() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        var store = try SimulatedStore(statePath: path, configuration: try Self.configuration(), lane: .manual)
        let id = try #require(
            Self.pay(PaymentRequest(productID: Self.annual, billingPlan: .monthly), in: store)?.recordID)
        try store.compact()
        let before = store.transactions()
        try store.close()
        store = try SimulatedStore(statePath: path, lane: .manual)
        #expect(store.transactions() == before)
        #expect(store.transaction(id)?.commitment?.billingPeriodNumber == 1)
        try store.close()
        var record = try #require(before.first { $0.id == id })
        record.commitment?.billingPeriodNumber = 13
        var writer = JournalWriter()
        RecordRow.encode(record, into: &writer)
        try Self.rewrite(writer.bytes, key: RecordRow.key(id), at: path)
        // Refused on opening with the whole-file check; by default, found when the account's records are read.
        let error = try StateFileTests.expectRefused(
            .stateCorrupt, path, in: directory, durability: StoreDurability(ledger: LedgerOptions()))
        store = try SimulatedStore(statePath: path, lane: .manual)
        _ = store.transactions()
        let found = #expect(throws: StoreSimulatorError(.stateCorrupt, "")) { try store.close() }
        for detail in [error?.detail, found?.detail] {
            #expect(detail?.contains("commitment billingPeriodNumber") == true, "\(detail ?? "")")
            #expect(detail?.contains("13 is outside 1...12") == true, "\(detail ?? "")")
        }
    }

    /// Puts a row in the records table of the closed state file at `path`, and closes it again.
    static func rewrite(_ bytes: [UInt8], key: String, at path: String) throws {
        let database = try LedgerDatabase(path: path)
        try database.write { txn in try txn.put(bytes, forKey: key, in: StoreTables.Table.records.rawValue) }
    }
}
