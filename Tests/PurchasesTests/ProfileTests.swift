import Foundation
import OpenStoreKit
import Purchases
import ReceiptKit
import StoreModels
import StoreSimulator
import Synchronization
import TestSupport
import Testing

private let vectors = SharedData.receipts

private let policy = EntitlementPolicy(accessLevels: [
    "com.example.premium.monthly": ["premium"], "com.example.premium.yearly": ["premium"],
    "com.example.pro": ["pro"],
])

/// A store, a queue and a controller whose profile comes from the device's verified receipt.
private struct Subscriber {
    let store = SimulatedStore(lane: .manual)
    let queue: SKPaymentQueue
    let controller: PurchaseController

    init(trustingTestRoot: Bool = true) throws {
        queue = SKPaymentQueue(store: store)
        let verifier = try ReceiptVerifier(trustedRoots: [], trustsTestRoot: trustingTestRoot)
        controller = PurchaseController(
            queue: queue,
            entitlements: policy,
            purchasesSource: ReceiptPurchasesSource(queue: queue, verifier: verifier)
        ) { _ in }
        controller.loadProducts(["com.example.pro", "com.example.premium.monthly", "com.example.premium.yearly"]) { _ in
        }
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
}

/// The device's receipt, verified by a verifier that trusts the test root until ``distrust()`` and none after,
/// counting verifications.
private final class CountingReceiptSource: VerifiedPurchasesSource {
    private let trusting: ReceiptPurchasesSource
    private let distrusting: ReceiptPurchasesSource
    private let state = Mutex((trusted: true, verifications: 0))

    init(queue: SKPaymentQueue) throws {
        trusting = ReceiptPurchasesSource(
            queue: queue, verifier: try ReceiptVerifier(trustedRoots: [], trustsTestRoot: true))
        distrusting = ReceiptPurchasesSource(
            queue: queue, verifier: try ReceiptVerifier(trustedRoots: [], trustsTestRoot: false))
    }

    var verifications: Int { state.withLock { $0.verifications } }
    func distrust() { state.withLock { $0.trusted = false } }

    func verifiedPurchases() throws(PurchasesError) -> VerifiedPurchases {
        let trusted = state.withLock { state in
            state.verifications += 1
            return state.trusted
        }
        return try (trusted ? trusting : distrusting).verifiedPurchases()
    }
}

/// The first `count` elements of a stream, waited for within the tests' bound.
private func first(_ count: Int, of stream: AsyncStream<Profile>) async throws -> [Profile] {
    try await bounded("\(count) profile updates") {
        var elements: [Profile] = []
        for await element in stream {
            elements.append(element)
            if elements.count == count { break }
        }
        return elements
    }
}

@Suite("Profiles from verified receipts")
struct ProfileTests {
    @Test("A subscription grants its access level until it expires; the trial is reported")
    func subscriptionLifecycle() throws {
        let subscriber = try Subscriber()
        #expect(subscriber.controller.profile == .empty)
        subscriber.buy("com.example.premium.monthly")
        var premium = try #require(subscriber.controller.profile.accessLevels["premium"])
        #expect(premium.isActive)
        #expect(premium.isTrial)
        #expect(premium.expiresAt == subscriber.store.now.addingTimeInterval(7 * 86_400))
        #expect(subscriber.controller.profile.subscriptions.map(\.vendorProductId) == ["com.example.premium.monthly"])

        try subscriber.advance(days: 8)
        premium = try #require(subscriber.controller.profile.accessLevels["premium"])
        #expect(premium.isActive, "renewed after the trial")
        #expect(!premium.isTrial)

        let latest = try #require(subscriber.store.allTransactions().last)
        try subscriber.store.setAutoRenew(false, transactionID: latest.id)
        try subscriber.advance(days: 40)
        let profile = try subscriber.controller.refreshProfile()
        #expect(profile.accessLevels["premium"]?.isActive == false)
        #expect(profile.subscriptions.first?.isActive == false)
    }

    @Test("Time passing an expiry ends the access level: the profile changes and one update is published")
    func expiryOnTheClock() async throws {
        let subscriber = try Subscriber()
        let updates = subscriber.controller.profileUpdates
        subscriber.buy("com.example.premium.monthly")
        let premium = try #require(subscriber.controller.profile.accessLevels["premium"])
        #expect(premium.isActive)
        let expiry = try #require(premium.expiresAt)
        let latest = try #require(subscriber.store.allTransactions().last)
        try subscriber.store.setAutoRenew(false, transactionID: latest.id)

        // Day by day past the expiry, nobody reading the profile: the clock moves nine times, the access level ends
        // once. A later purchase publishes its own profile: what came before it is every update the clock caused.
        for _ in 0..<9 { try subscriber.advance(days: 1) }
        #expect(subscriber.store.now > expiry)
        subscriber.buy("com.example.pro")
        let published = try await first(4, of: updates)
        #expect(published.count == 4)
        #expect(published.map { $0.isActive("premium") } == [false, true, false, false])
        #expect(published.map { $0.isActive("pro") } == [false, false, false, true])
        let ended = try #require(published.dropFirst(2).first?.accessLevels["premium"])
        #expect(!ended.isActive)
        #expect(ended.expiresAt == expiry)
        #expect(published.dropFirst(2).first?.subscriptions.map(\.isActive) == [false])
        #expect(subscriber.controller.profile.accessLevels["premium"]?.isActive == false)
    }

    @Test("The end of a grace period ends the access level without anyone asking for a refresh")
    func graceEndOnTheClock() async throws {
        let subscriber = try Subscriber()
        subscriber.store.updateSettings {
            $0.billingRetryOnRenewal = true
            $0.billingGracePeriodEnabled = true
        }
        let updates = subscriber.controller.profileUpdates
        subscriber.buy("com.example.premium.yearly")
        try subscriber.advance(days: 366)
        try subscriber.advance(days: 30)
        subscriber.buy("com.example.pro")
        let published = try await first(5, of: updates)
        #expect(published.map { $0.isActive("premium") } == [false, true, true, false, false])
        #expect(
            published.map { $0.accessLevels["premium"]?.isInGracePeriod ?? false } == [
                false, false, true, false, false,
            ])
        #expect(published.last?.isActive("pro") == true)
    }

    @Test("A profile read after the clock passed an expiry is current even before the store reports the move")
    func profileReadAfterExpiry() async throws {
        let clock = ManualClock()
        let store = SimulatedStore(clock: clock, lane: .manual)
        let queue = SKPaymentQueue(store: store)
        let controller = PurchaseController(
            queue: queue,
            entitlements: policy,
            purchasesSource: ReceiptPurchasesSource(
                queue: queue, verifier: try ReceiptVerifier(trustedRoots: [], trustsTestRoot: true))
        ) { _ in }
        controller.loadProducts(["com.example.premium.monthly"]) { _ in }
        store.runUntilIdle()
        controller.purchase(productID: "com.example.premium.monthly") { _ in }
        store.runUntilIdle()
        let latest = try #require(store.allTransactions().last)
        try store.setAutoRenew(false, transactionID: latest.id)
        #expect(controller.profile.isActive("premium"))
        clock.advance(by: 8 * 86_400)  // the clock alone, as a clock that runs by itself moves
        let startsWith = try await first(1, of: controller.profileUpdates)
        #expect(startsWith.map { $0.isActive("premium") } == [false], "a new stream starts with the current profile")
        #expect(!controller.profile.isActive("premium"))
    }

    @Test("A receipt that no longer verifies is tried once when the clock passes a change, not on every later read")
    func failingReceiptIsNotVerifiedOnEveryRead() throws {
        let store = SimulatedStore(lane: .manual)
        let queue = SKPaymentQueue(store: store)
        let source = try CountingReceiptSource(queue: queue)
        let controller = PurchaseController(queue: queue, entitlements: policy, purchasesSource: source) { _ in }
        controller.loadProducts(["com.example.premium.monthly"]) { _ in }
        store.runUntilIdle()
        controller.purchase(productID: "com.example.premium.monthly") { _ in }
        store.runUntilIdle()
        let latest = try #require(store.allTransactions().last)
        try store.setAutoRenew(false, transactionID: latest.id)
        #expect(controller.profile.isActive("premium"))

        source.distrust()
        let before = source.verifications
        try store.advance(by: 8 * 86_400)  // past the expiry: the controller computes the profile again, and fails
        store.runUntilIdle()
        #expect(source.verifications == before + 1)
        for _ in 0..<5 { _ = controller.profile }
        try store.advance(by: 86_400)
        store.runUntilIdle()
        #expect(source.verifications == before + 1, "reads and clock moves after the failure verify nothing")
        #expect(throws: PurchasesError(.receiptInvalid, "")) { try controller.refreshProfile() }
        #expect(source.verifications == before + 2, "an explicit refresh verifies again")
    }

    @Test("A refund revokes access")
    func refund() throws {
        let subscriber = try Subscriber()
        subscriber.buy("com.example.pro")
        #expect(subscriber.controller.profile.isActive("pro"))
        #expect(subscriber.controller.profile.accessLevels["pro"]?.expiresAt == nil, "lifetime access")
        let record = try #require(subscriber.store.allTransactions().first)
        _ = try subscriber.store.refund(record.id)
        subscriber.store.runUntilIdle()
        let pro = try #require(subscriber.controller.profile.accessLevels["pro"])
        #expect(!pro.isActive)
        #expect(pro.refundedAt == subscriber.store.now)
    }

    @Test("A grace period keeps access while billing is retried; billing retry alone does not")
    func billingIssues() throws {
        for grace in [true, false] {
            let subscriber = try Subscriber()
            subscriber.store.updateSettings {
                $0.billingRetryOnRenewal = true
                $0.billingGracePeriodEnabled = grace
            }
            subscriber.buy("com.example.premium.yearly")
            try subscriber.advance(days: 366)
            let premium = try #require(try subscriber.controller.refreshProfile().accessLevels["premium"])
            #expect(premium.isActive == grace)
            #expect(premium.isInGracePeriod == grace)
            #expect(premium.isInBillingRetry == !grace)
        }
    }

    @Test("Nothing is granted from a receipt that does not verify")
    func unverifiedGrantsNothing() throws {
        let subscriber = try Subscriber(trustingTestRoot: false)
        subscriber.buy("com.example.pro")
        #expect(subscriber.controller.profile == .empty)
        #expect(throws: PurchasesError(.receiptInvalid, "")) { try subscriber.controller.refreshProfile() }
    }

    @Test("Profile updates stream each new profile")
    func updates() async throws {
        let subscriber = try Subscriber()
        let updates = subscriber.controller.profileUpdates
        #expect(try await next(updates, "the first profile") == .empty)
        subscriber.buy("com.example.pro")
        #expect(try await next(updates, "the profile after the purchase")?.isActive("pro") == true)
    }

    @Test("The JSON form is the spec's")
    func json() throws {
        let expires = try #require(ISO8601DateFormatter().date(from: "2024-02-15T10:30:00Z"))
        let profile = Profile(
            accessLevels: ["premium": AccessLevel(id: "premium", isActive: true, expiresAt: expires)],
            subscriptions: [SubscriptionStatus(vendorProductId: "premium_monthly", isActive: true, expiresAt: expires)]
        )
        #expect(
            profile.jsonString
                == #"{"accessLevels":{"premium":{"expiresAt":"2024-02-15T10:30:00Z","id":"premium","isActive":true}},"subscriptions":[{"expiresAt":"2024-02-15T10:30:00Z","isActive":true,"vendorProductId":"premium_monthly"}]}"#
        )
    }

    @Test("The profile of a real App Store receipt matches what its dates say", .requiresSharedData)
    func realReceipt() throws {
        let path = vectors.appendingPathComponent("revenuecat_base64encodedreceiptsample1.der").path
        try #require(FileManager.default.fileExists(atPath: path), "the shared receipt vectors are missing at \(path)")
        let apple = try ReceiptFile.readCertificate(
            atPath: vectors.appendingPathComponent("AppleIncRootCertificate.cer").path)
        let verified = try ReceiptVerifier(trustedRoots: [apple]).verify(try ReceiptFile.readReceipt(atPath: path))
        let receipt = verified.receipt
        let revenueCat = EntitlementPolicy(accessLevels: [
            "com.revenuecat.monthly_4.99.1_week_intro": ["premium"],
            "com.revenuecat.annual_39.99.2_week_intro": ["premium"],
        ])
        let created = Date(timeIntervalSince1970: 1_595_439_548)
        let atCreation = revenueCat.profile(
            from: VerifiedPurchases(receipt: receipt, at: created).purchases, at: created)
        let premium = try #require(atCreation.accessLevels["premium"])
        #expect(premium.isActive)
        #expect(premium.expiresAt == Date(timeIntervalSince1970: 1_595_443_146))
        #expect(premium.vendorProductId == "com.revenuecat.annual_39.99.2_week_intro")
        let later = Date(timeIntervalSince1970: 1_595_443_146)
        #expect(
            revenueCat.profile(from: VerifiedPurchases(receipt: receipt, at: later).purchases, at: later).isActive(
                "premium") == false)
    }
}
