import Foundation
import OpenStoreKit
import Purchases
import ReceiptKit
import StoreModels
import StoreSimulator
import Testing

/// Each plan grants an access level of its own, so that the profile shows what each product grants.
private let perPlan = EntitlementPolicy(accessLevels: [
    "com.example.premium.monthly": ["monthly", "premium"], "com.example.premium.yearly": ["yearly", "premium"],
])

/// A store, a queue and a controller whose profile comes from the device's verified receipt.
private struct Customer {
    let store = SimulatedStore(lane: .manual)
    let queue: SKPaymentQueue
    let controller: PurchaseController

    init() throws {
        queue = SKPaymentQueue(store: store)
        controller = PurchaseController(
            queue: queue,
            entitlements: perPlan,
            purchasesSource: ReceiptPurchasesSource(
                queue: queue, verifier: try ReceiptVerifier(trustedRoots: [], trustsTestRoot: true))
        ) { _ in }
        controller.loadProducts(["com.example.premium.monthly", "com.example.premium.yearly"]) { _ in }
        store.runUntilIdle()
    }

    func buy(_ product: String) {
        controller.purchase(productID: product) { _ in }
        store.runUntilIdle()
    }

    func advance(days: Double) throws {
        try store.advance(by: days * 86_400)
        store.runUntilIdle()
    }

    /// The profile from the receipt now.
    func profile() throws -> Profile { try controller.refreshProfile() }
}

@Suite("Profiles follow the shared definition of access")
struct ProfileAccessTests {
    @Test("An upgrade ends the replaced plan's access at once, as an upgrade and not a refund; the new plan has access")
    func upgrade() throws {
        let customer = try Customer()
        customer.buy("com.example.premium.monthly")
        #expect(try customer.profile().isActive("monthly"))
        try customer.advance(days: 3)
        customer.buy("com.example.premium.yearly")
        let profile = try customer.profile()
        let monthly = try #require(profile.accessLevels["monthly"])
        #expect(!monthly.isActive)
        #expect(monthly.refundedAt == nil, "an upgrade is not a refund")
        #expect(
            profile.subscriptions.first { $0.vendorProductId == "com.example.premium.monthly" }?.isRefunded == false)
        #expect(profile.isActive("yearly"))
        #expect(profile.isActive("premium"))
        #expect(profile.accessLevels["premium"]?.vendorProductId == "com.example.premium.yearly")
        #expect(
            customer.store.access(to: "com.example.premium.monthly", account: customer.queue.account).phase == .upgraded
        )
    }

    @Test("A refund is still reported as one")
    func refund() throws {
        let customer = try Customer()
        customer.buy("com.example.premium.yearly")
        let record = try #require(customer.store.allTransactions().last)
        _ = try customer.store.refund(record.id)
        customer.store.runUntilIdle()
        let yearly = try #require(try customer.profile().accessLevels["yearly"])
        #expect(!yearly.isActive)
        #expect(yearly.refundedAt == customer.store.now)
        #expect(try customer.profile().subscriptions.first?.isRefunded == true)
    }

    @Test("In grace the level is active until the grace period ends, then in billing retry without access")
    func graceThenBillingRetry() throws {
        let customer = try Customer()
        customer.store.updateSettings {
            $0.billingRetryOnRenewal = true
            $0.billingGracePeriodEnabled = true
        }
        customer.buy("com.example.premium.monthly")
        try customer.advance(days: 7)  // the free week ends and the first renewal fails
        let graceEnd = try #require(
            customer.store.subscription(groupID: "premium", account: customer.queue.account)?.gracePeriodEndsAt)
        var monthly = try #require(try customer.profile().accessLevels["monthly"])
        #expect(monthly.isActive)
        #expect(monthly.isInGracePeriod)
        #expect(monthly.expiresAt == graceEnd)
        #expect(customer.store.access(to: "com.example.premium.monthly", account: customer.queue.account).hasAccess)

        try customer.advance(days: 16)
        monthly = try #require(try customer.profile().accessLevels["monthly"])
        #expect(!monthly.isActive)
        #expect(!monthly.isInGracePeriod)
        #expect(monthly.isInBillingRetry)
    }

    @Test("A grace period that a source reports but that has ended counts as billing retry, without access")
    func endedGraceIsBillingRetry() {
        let bought = Date(timeIntervalSince1970: 1_767_225_600)
        let expires = bought.addingTimeInterval(30 * 86_400)
        let purchase = EntitlementTransaction(
            productID: "com.example.premium.monthly", transactionID: "1", originalTransactionID: "1",
            purchaseDate: bought, expiresDate: expires, cancellationDate: nil, isTrialPeriod: false,
            isInIntroOfferPeriod: false)
        let graceEnd = expires.addingTimeInterval(16 * 86_400)
        let inGrace = perPlan.profile(
            from: [purchase], at: graceEnd.addingTimeInterval(-1),
            gracePeriods: ["com.example.premium.monthly": graceEnd])
        #expect(inGrace.accessLevels["monthly"]?.isActive == true)
        #expect(inGrace.accessLevels["monthly"]?.isInGracePeriod == true)
        let after = perPlan.profile(
            from: [purchase], at: graceEnd, gracePeriods: ["com.example.premium.monthly": graceEnd])
        #expect(after.accessLevels["monthly"]?.isActive == false)
        #expect(after.accessLevels["monthly"]?.isInBillingRetry == true)
    }

    @Test("Receipt entries cancelled by an upgrade are told apart from refunds")
    func receiptUpgrades() throws {
        let customer = try Customer()
        customer.buy("com.example.premium.monthly")
        customer.buy("com.example.premium.yearly")
        let receipt = try ReceiptVerifier(trustedRoots: [], trustsTestRoot: true).verify(
            Array(try #require(customer.queue.appStoreReceiptData()))
        ).receipt
        let purchases = VerifiedPurchases(receipt: receipt, at: customer.store.now).purchases
        let monthly = try #require(purchases.first { $0.productID == "com.example.premium.monthly" })
        let yearly = try #require(purchases.first { $0.productID == "com.example.premium.yearly" })
        #expect(monthly.cancellationDate == yearly.purchaseDate)
        #expect(monthly.isUpgraded)
        #expect(!yearly.isUpgraded)
    }
}
