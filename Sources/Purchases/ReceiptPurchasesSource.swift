public import Foundation
public import OpenStoreKit
public import ReceiptKit

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
        self.bundleIdentifier = bundleIdentifier ?? queue.environment.appBundleIdentifier
    }

    /// Reads, verifies and converts the receipt.
    public func verifiedPurchases() throws(PurchasesError) -> VerifiedPurchases {
        guard let data = queue.appStoreReceiptData() else {
            throw PurchasesError(.receiptInvalid, "the device has no app receipt")
        }
        let environment = queue.environment
        let now = environment.now
        let receipt: AppReceipt
        do throws(ReceiptError) {
            receipt = try verifier.verify(
                Array(data),
                options: ReceiptVerificationOptions(
                    time: .date(now),
                    bundleIdentifier: bundleIdentifier,
                    deviceIdentifier: environment.receiptDeviceIdentifier(for: queue.deviceID)
                )
            ).receipt
        } catch {
            throw PurchasesError(.receiptInvalid, "the app receipt does not verify: \(error.message)")
        }
        return VerifiedPurchases(
            purchases: VerifiedPurchases(receipt: receipt, at: now).purchases, date: now,
            billing: environment.billing(of: queue.account))
    }
}

extension VerifiedPurchases {
    /// The purchases of a receipt that was verified, at a moment.
    public init(
        receipt: AppReceipt, at date: Date, gracePeriods: [String: Date] = [:], billingRetries: Set<String> = []
    ) {
        self.init(
            purchases: Self.markingUpgrades(receipt.inAppPurchases.map(EntitlementTransaction.init)),
            date: date,
            gracePeriods: gracePeriods,
            billingRetries: billingRetries
        )
    }
}

extension VerifiedPurchases {
    /// Marks the receipt entries that an upgrade cancelled. A receipt has no upgrade flag, but an upgrade leaves a
    /// trace: the replaced period is cancelled at the instant a period of another product starts in the same
    /// subscription (the same original transaction). Any other cancellation is a refund or a revocation.
    static func markingUpgrades(_ purchases: [EntitlementTransaction]) -> [EntitlementTransaction] {
        let startsByOriginal = Dictionary(
            grouping: purchases.filter { $0.expiresDate != nil }, by: \.originalTransactionID)
        return purchases.map { purchase in
            guard let cancelled = purchase.cancellationDate, purchase.expiresDate != nil, !purchase.isUpgraded,
                startsByOriginal[purchase.originalTransactionID]?.contains(where: {
                    $0.productID != purchase.productID && $0.purchaseDate == cancelled
                }) == true
            else { return purchase }
            return EntitlementTransaction(
                productID: purchase.productID,
                transactionID: purchase.transactionID,
                originalTransactionID: purchase.originalTransactionID,
                purchaseDate: purchase.purchaseDate,
                expiresDate: purchase.expiresDate,
                cancellationDate: cancelled,
                isTrialPeriod: purchase.isTrialPeriod,
                isInIntroOfferPeriod: purchase.isInIntroOfferPeriod,
                isUpgraded: true
            )
        }
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
