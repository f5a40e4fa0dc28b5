public import Foundation
public import OpenStoreKit
public import ReceiptKit
import StoreSimulator

/// Verified purchases from the app receipt of a queue's device: the receipt is verified (signature, chain to a trusted
/// root at the store's current time, bundle identifier, device hash) every time, and only then read.
///
/// Billing grace periods and billing retry are not in receipts; they come from the store's subscription state, as a
/// server gets them from App Store notifications.
public struct ReceiptPurchasesSource: VerifiedPurchasesSource {
    /// The queue whose device's receipt is read.
    public let queue: SKPaymentQueue
    /// The verifier, with the roots it trusts.
    public let verifier: ReceiptVerifier
    /// The bundle identifier the receipt must name; `nil` skips the check.
    public let bundleIdentifier: String?

    /// Creates a source.
    ///
    /// - Parameters:
    ///   - queue: the queue whose receipt is read.
    ///   - verifier: trusts the roots receipts must chain to (for the simulator's receipts, the test root).
    ///   - bundleIdentifier: the app's bundle identifier; the store's app by default.
    public init(queue: SKPaymentQueue, verifier: ReceiptVerifier, bundleIdentifier: String? = nil) {
        self.queue = queue
        self.verifier = verifier
        self.bundleIdentifier = bundleIdentifier ?? queue.store.app.bundleIdentifier
    }

    /// Reads, verifies and converts the receipt.
    public func verifiedPurchases() throws(PurchasesError) -> VerifiedPurchases {
        guard let data = queue.appStoreReceiptData() else {
            throw PurchasesError(.receiptInvalid, "the device has no app receipt")
        }
        let now = queue.store.now
        let receipt: AppReceipt
        do throws(ReceiptError) {
            receipt = try verifier.verify(
                Array(data),
                options: ReceiptVerificationOptions(
                    time: .date(now),
                    bundleIdentifier: bundleIdentifier,
                    deviceIdentifier: SimulatedStore.deviceIdentifier(for: queue.deviceID)
                )
            ).receipt
        } catch {
            throw PurchasesError(.receiptInvalid, "the app receipt does not verify: \(error.message)")
        }
        var grace: [String: Date] = [:]
        var retry = Set<String>()
        for subscription in queue.store.subscriptions(of: queue.account) {
            switch subscription.phase {
            case .gracePeriod: grace[subscription.productID] = subscription.gracePeriodEndsAt
            case .billingRetry: retry.insert(subscription.productID)
            case .active, .expired: break
            }
        }
        return VerifiedPurchases(receipt: receipt, at: now, gracePeriods: grace, billingRetries: retry)
    }
}

extension VerifiedPurchases {
    /// The purchases of a receipt that was verified, at a moment.
    public init(
        receipt: AppReceipt, at date: Date, gracePeriods: [String: Date] = [:], billingRetries: Set<String> = []
    ) {
        self.init(
            purchases: receipt.inAppPurchases.map(EntitlementTransaction.init),
            date: date,
            gracePeriods: gracePeriods,
            billingRetries: billingRetries
        )
    }
}

extension EntitlementTransaction {
    /// The entitlement facts of a receipt entry.
    public init(_ entry: InAppPurchaseReceipt) {
        self.init(
            productID: entry.productIdentifier,
            transactionID: entry.transactionIdentifier,
            originalTransactionID: entry.originalTransactionIdentifier ?? entry.transactionIdentifier,
            purchaseDate: entry.purchaseDate,
            expiresDate: entry.subscriptionExpirationDate,
            cancellationDate: entry.cancellationDate,
            isTrialPeriod: entry.isTrialPeriod,
            isInIntroOfferPeriod: entry.isInIntroOfferPeriod
        )
    }
}
