import Foundation
import OpenStoreKit
import PaywallEvents
import PaywallEventsTest
import Purchases
import StoreModels
import StoreSimulator

/// The paywall side of a feed, for one user: the purchase module on the user's queue, a host, a presentation context
/// with a checker, the app's delegate and the controller on screen.
final class FeedPaywall {
    let user: String
    let queue: SKPaymentQueue
    let purchases: PurchaseController
    let host = SimulatedHost()
    let context: PresentationContext
    let checker = ConformanceChecker()
    let app = FeedPaywallApp()
    var controller: (any PresentableController)?
    /// Where the checker's entries for the controller on screen start.
    var shownAt = 0

    init(user: String, queue: SKPaymentQueue, store: SimulatedStore) {
        self.user = user
        self.queue = queue
        let journal = InMemoryDeliveryJournal()
        purchases = PurchaseController(
            queue: queue,
            journal: journal,
            entitlements: Self.entitlements(of: store.catalog),
            purchasesSource: FeedPurchasesSource(store: store, account: user)
        ) { _ in }
        context = PresentationContext(purchases: purchases, host: host, profileId: user)
        context.add(checker)
        checker.watch(queue) { journal.isDelivered($0.transactionIdentifier ?? "") }
    }

    /// In feeds, a subscription grants the access level named by its subscription group, and any other
    /// non-consumable product the one named by the last part of its identifier (`com.example.pro` grants `pro`).
    static func entitlements(of catalog: StoreCatalog) -> EntitlementPolicy {
        var levels: [String: Set<String>] = [:]
        for product in catalog.products where product.type != .consumable {
            let name = product.subscription?.groupID ?? String(product.id.split(separator: ".").last ?? "")
            levels[product.id] = [name]
        }
        return EntitlementPolicy(accessLevels: levels)
    }

    /// The callbacks recorded for the controller on screen since it was shown.
    var events: [PaywallEvent] {
        guard let screen = controller?.presentedScreen else { return [] }
        return checker.entries.dropFirst(shownAt).compactMap { entry in
            guard entry.source == screen, case .callback(let event) = entry.fact else { return nil }
            return event
        }
    }
}

/// The purchases of an account, from the store's own history, with the billing state of its subscriptions. It stands
/// in for a verified receipt in feeds, where the store is the authority.
struct FeedPurchasesSource: VerifiedPurchasesSource {
    let store: SimulatedStore
    let account: String

    func verifiedPurchases() throws(PurchasesError) -> VerifiedPurchases {
        let purchases = store.transactions(of: account).filter { $0.state == .purchased }.map { record in
            EntitlementTransaction(
                productID: record.productID,
                transactionID: String(record.id),
                originalTransactionID: String(record.originalID),
                purchaseDate: record.purchaseDate,
                expiresDate: record.expirationDate,
                cancellationDate: record.cancellationDate,
                isTrialPeriod: record.isTrialPeriod,
                isInIntroOfferPeriod: record.isInIntroOfferPeriod,
                isUpgraded: record.isUpgraded
            )
        }
        return VerifiedPurchases(purchases: purchases, date: store.now, billing: store.billing(of: account))
    }
}

/// The app's paywall delegate inside a feed: it handles the required callbacks, answers loading failures and
/// dismisses as its options say, and leaves everything else to the defaults.
final class FeedPaywallApp: FlowControllerDelegate, PaywallControllerDelegate, @unchecked Sendable {
    // @unchecked: a feed runs on one thread.
    var options: [FeedStep.PaywallAppOption: Bool] = [.dismissOnSuccess: true]

    func option(_ option: FeedStep.PaywallAppOption) -> Bool { options[option] ?? false }

    private func finished(_ result: PurchaseResult, dismiss: () -> Void) {
        switch result {
        case .success: if option(.dismissOnSuccess) { dismiss() }
        case .cancelled: if option(.dismissOnCancel) { dismiss() }
        case .pending: break
        }
    }

    func flowController(
        _ controller: FlowController, didFinishPurchase product: PaywallProduct, purchaseResult: PurchaseResult
    ) {
        finished(purchaseResult, dismiss: controller.dismiss)
    }
    func flowController(
        _ controller: FlowController, didFailPurchase product: PaywallProduct, error: PaywallEventsError
    ) {}
    func flowController(_ controller: FlowController, didFinishRestoreWith profile: Profile) {}
    func flowController(_ controller: FlowController, didFailRestoreWith error: PaywallEventsError) {}
    func flowController(_ controller: FlowController, didFailLoadingProductsWith error: PaywallEventsError) -> Bool {
        option(.retryLoading)
    }

    func paywallController(
        _ controller: PaywallController, didFinishPurchase product: PaywallProduct, purchaseResult: PurchaseResult
    ) {
        finished(purchaseResult, dismiss: controller.dismiss)
    }
    func paywallController(
        _ controller: PaywallController, didFailPurchase product: PaywallProduct, error: PaywallEventsError
    ) {}
    func paywallController(_ controller: PaywallController, didFinishRestoreWith profile: Profile) {}
    func paywallController(_ controller: PaywallController, didFailRestoreWith error: PaywallEventsError) {}
    func paywallController(_ controller: PaywallController, didFailLoadingProductsWith error: PaywallEventsError)
        -> Bool
    { option(.retryLoading) }
}

/// Writes paywall callbacks to a feed's event log as they happen.
final class FeedPaywallLog: @unchecked Sendable {
    // @unchecked: a feed runs on one thread; the recorder outlives the paywall.
    unowned let recorder: FeedRecorder
    let user: String

    init(recorder: FeedRecorder, user: String) {
        self.recorder = recorder
        self.user = user
    }

    func write(_ entry: SessionEntry) {
        guard case .callback(let event) = entry.fact else { return }
        recorder.loggedPaywall(event, user: user, placement: entry.source?.id, time: entry.time)
    }
}
