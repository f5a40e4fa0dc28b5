import Foundation
import OpenStoreKit
import OpenStoreKit2
import Purchases
import ReceiptKit
import StoreModels
import StoreSimulator
import Testing

#if Server
    import StoreServer
#endif

/// A seeded random workload on one store; after every step, every face's answer for every account is the engine's.
@Suite("Every face agrees with the engine", .timeLimit(.minutes(10)))
struct AgreementTests {
    /// The accounts of the workload: all of them may join the family.
    static let accounts = ["ann", "ben", "cat"]
    /// The subscription group of the workload.
    static let group = "premium"
    /// The products the profile's access levels name, one level each.
    static let levels = ["com.example.pro", "com.example.premium.monthly", "com.example.premium.yearly"]

    /// The demo catalog with both subscriptions marked `familyShareable`.
    static let configuration = StoreConfiguration(
        catalog: StoreCatalog(
            products: StoreConfiguration.demo.catalog.products.map { product in
                guard product.type == .autoRenewableSubscription else { return product }
                return ProductDefinition(
                    id: product.id, referenceName: product.referenceName, type: product.type, price: product.price,
                    isFamilyShareable: true, localizations: product.localizations, subscription: product.subscription)
            }))

    @Test(
        "A seeded random workload: after every step StoreKit 2, the server and the purchase module answer as the engine"
    )
    func randomWorkload() async throws {
        let environment = ProcessInfo.processInfo.environment
        let steps = environment["OPENSTOREKIT_AGREEMENT_STEPS"].flatMap { Int($0) } ?? 200
        let seed = environment["OPENSTOREKIT_AGREEMENT_SEED"].flatMap { UInt64($0) } ?? 2
        let store = SimulatedStore(configuration: Self.configuration, lane: .manual)
        var workload = Workload(store: store, random: SeededRandom(seed: seed))
        #if Server
            let server = try ServerFaces(store: store)
            defer { server.stop() }
        #endif
        var covered: Set<String> = []
        for step in 0..<steps {
            let action = await workload.step()
            store.runUntilIdle()
            let context = "seed \(seed), step \(step) (\(action))"
            for account in Self.accounts {
                await StoreKit2Face.check(store: store, account: account, context: context)
                if try PurchasesFace.check(store: store, account: account, context: context) {
                    covered.insert("profile")
                }
                #if Server
                    if try await server.check(account: account, context: context) { covered.insert("server") }
                #endif
                for status in store.subscriptionStatuses(of: account) {
                    covered.insert("\(status.isFamilyShared ? "shared" : "own") status \(status.code)")
                }
            }
        }
        // The workload reaches what it is meant to compare (with the fixed seed, and any long run).
        if steps >= 200 {
            let wanted = [
                "profile", "own status active", "own status expired", "own status billingRetry", "own status revoked",
                "own status gracePeriod",
                "shared status active", "shared status revoked",
            ]
            #expect(Set(wanted).isSubset(of: covered), "covered: \(covered.sorted())")
            #if Server
                #expect(covered.contains("server"))
            #endif
        }
        print("agreement: \(steps) steps, seed \(seed), covered \(covered.sorted().joined(separator: ", "))")
    }
}

/// The random steps: purchases, upgrades and downgrades, Ask to Buy, renewals by moving the clock, billing retry and
/// grace periods, refunds and their reversal, Family Sharing, restores, extensions.
struct Workload {
    let store: SimulatedStore
    var random: SeededRandom

    mutating func step() async -> String {
        let account = AgreementTests.accounts[Int.random(in: 0..<AgreementTests.accounts.count, using: &random)]
        let products = ["com.example.premium.monthly", "com.example.premium.yearly", "com.example.pro"]
        let product = products[Int.random(in: 0..<products.count, using: &random)]
        let owned = store.transactions(of: account).filter { $0.state == .purchased && !$0.isFamilyShared }
        switch Int.random(in: 0..<14, using: &random) {
        case 0, 1:
            _ = try? store.buyProduct(product, account: account)
            return "\(account) buys \(product) elsewhere"
        case 2:
            let askToBuy = Bool.random(using: &random)
            _ = await StoreKitEnvironment.withStore(store, deviceID: account + "-phone", account: account) {
                try? await Product.products(for: [product]).first?.purchase(
                    options: [.simulatesAskToBuyInSandbox(askToBuy)])
            }
            return "\(account) buys \(product) in the app\(askToBuy ? " with Ask to Buy" : "")"
        case 3:
            let waiting = store.unfinishedTransactions(deviceID: account + "-phone").filter { $0.state == .deferred }
            guard let request = waiting.first else { return "\(account) has no Ask to Buy request" }
            let approve = Bool.random(using: &random)
            _ = try? approve ? store.approveAskToBuy(request.id) : store.declineAskToBuy(request.id)
            return "\(account)'s Ask to Buy request \(approve ? "approved" : "declined")"
        case 4, 5, 6:
            let days = [1, 3, 7, 16, 31, 45][Int.random(in: 0..<6, using: &random)]
            _ = try? store.advance(by: TimeInterval(days) * 86_400)
            return "the clock moves \(days) days"
        case 7:
            let retry = Bool.random(using: &random)
            let grace = Bool.random(using: &random)
            store.updateSettings {
                $0.billingRetryOnRenewal = retry
                $0.billingGracePeriodEnabled = grace
            }
            return "billing retry \(retry), grace period \(grace)"
        case 8:
            guard let record = owned.randomElement(using: &random) else { return "\(account) has nothing to refund" }
            _ = try? store.refund(record.id)
            return "\(account)'s transaction \(record.id) refunded"
        case 9:
            let refunded = owned.filter { $0.cancellationDate != nil && !$0.isUpgraded }
            guard let record = refunded.randomElement(using: &random) else { return "\(account) has no refund" }
            _ = try? store.reverseRefund(transactionID: record.id)
            return "\(account)'s refund of \(record.id) reversed"
        case 10:
            if store.family(of: account) == nil {
                _ = try? store.joinFamily("family", account: account)
                return "\(account) joins the family"
            }
            _ = try? store.leaveFamily(account: account)
            return "\(account) leaves the family"
        case 11:
            await StoreKitEnvironment.withStore(store, deviceID: account + "-phone", account: account) {
                try? await AppStore.sync()
            }
            return "\(account) restores"
        case 12:
            guard let subscription = store.subscription(groupID: AgreementTests.group, account: account) else {
                return "\(account) has no subscription to extend"
            }
            _ = try? store.extendRenewalDate(originalID: subscription.originalID, by: 5 * 86_400)
            return "\(account)'s subscription extended"
        default:
            guard let subscription = store.subscription(groupID: AgreementTests.group, account: account) else {
                return "\(account) has no subscription to turn off"
            }
            _ = try? store.setAutoRenew(false, transactionID: subscription.latestRecordID)
            return "\(account) turns auto-renew off"
        }
    }
}

/// StoreKit 2 on the account's phone: statuses, current entitlements, intro offer eligibility and `Transaction.all`.
enum StoreKit2Face {
    static func check(store: SimulatedStore, account: String, context: String) async {
        let deviceID = account + "-phone"
        await StoreKitEnvironment.withStore(store, deviceID: deviceID, account: account) {
            let statuses = (try? await Product.SubscriptionInfo.status(for: AgreementTests.group)) ?? []
            let seen = statuses.map { "\($0.transaction.unsafePayloadValue.id) \(code(of: $0.state))" }
            let engine = store.subscriptionStatuses(of: account, groupID: AgreementTests.group).map {
                "\($0.transactionID) \($0.code.rawValue)"
            }
            #expect(seen == engine, "StoreKit 2 statuses of \(account), \(context)")

            var entitlements: [UInt64] = []
            for await result in Transaction.currentEntitlements { entitlements.append(result.unsafePayloadValue.id) }
            #expect(
                entitlements == store.currentEntitlements(of: account).map(\.id),
                "StoreKit 2 currentEntitlements of \(account), \(context)")

            let eligible = await Product.SubscriptionInfo.isEligibleForIntroOffer(for: AgreementTests.group)
            #expect(
                eligible == store.isEligibleForIntroductoryOffer(groupID: AgreementTests.group, account: account),
                "StoreKit 2 isEligibleForIntroOffer of \(account), \(context)")

            var all: [UInt64] = []
            for await result in Transaction.all { all.append(result.unsafePayloadValue.id) }
            let unfinished = Set(store.unfinishedTransactions(deviceID: deviceID).compactMap(\.recordID))
            #expect(
                all == store.transactionHistory(of: account, view: .device(unfinished: unfinished)).map(\.id),
                "StoreKit 2 Transaction.all of \(account), \(context)")
        }
    }

    /// Apple's status number of a renewal state.
    static func code(of state: Product.SubscriptionInfo.RenewalState) -> Int {
        switch state {
        case .subscribed: 1
        case .expired: 2
        case .inBillingRetryPeriod: 3
        case .inGracePeriod: 4
        default: 5
        }
    }
}

/// The purchase module: the profile of the account's device receipt, level by level, against the engine's access.
enum PurchasesFace {
    /// Returns whether the device had a receipt to compare.
    static func check(store: SimulatedStore, account: String, context: String) throws -> Bool {
        let queue = SKPaymentQueue(store: store, deviceID: account + "-pad", account: account)
        let source = ReceiptPurchasesSource(
            queue: queue, verifier: try ReceiptVerifier(trustedRoots: [], trustsTestRoot: true))
        guard let verified = try? source.verifiedPurchases() else { return false }
        let policy = EntitlementPolicy(
            accessLevels: Dictionary(uniqueKeysWithValues: AgreementTests.levels.map { ($0, [$0]) }))
        let profile = policy.profile(
            from: verified.purchases, at: verified.date, gracePeriods: verified.gracePeriods,
            billingRetries: verified.billingRetries)
        for product in AgreementTests.levels {
            #expect(
                profile.isActive(product) == store.access(to: product, account: account).hasAccess,
                "the profile's \(product) of \(account), \(context)")
        }
        return true
    }
}
