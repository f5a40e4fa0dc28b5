import Foundation
import ReceiptKit

/// Receipts the tests issue with the test PKI.
enum Issuing {
    /// The device issued receipts are bound to.
    static let device = DeviceIdentifier(uuid: UUID(uuidString: "11111111-2222-3333-4444-555555555555")!)

    /// A sandbox receipt for `com.example.app` with `count` purchases, bound to ``device``.
    static func receipt(purchases count: Int = 10, created: Date = Fixtures.issueDate) -> AppReceipt {
        var purchases: [InAppPurchaseReceipt] = []
        for index in 0..<count {
            let purchased = created.addingTimeInterval(Double(index - count) * 3600)
            purchases.append(
                InAppPurchaseReceipt(
                    productIdentifier: index % 3 == 0 ? "com.example.app.coins" : "com.example.app.monthly",
                    transactionIdentifier: String(2_000_000_000_000_000 + index), purchaseDate: purchased,
                    originalTransactionIdentifier: String(2_000_000_000_000_000), originalPurchaseDate: created,
                    productType: index % 3 == 0 ? .consumable : .autoRenewableSubscription,
                    subscriptionExpirationDate: index % 3 == 0 ? nil : purchased.addingTimeInterval(30 * 86_400),
                    webOrderLineItemIdentifier: index % 3 == 0 ? nil : 2_000_000_123_000_000 + Int64(index),
                    isTrialPeriod: index == 1))
        }
        let opaque: [UInt8] = Array(0..<16)
        return AppReceipt(
            receiptType: "ProductionSandbox", bundleIdentifier: "com.example.app", applicationVersion: "7",
            opaqueValue: opaque,
            sha1Hash: AppReceipt.deviceHash(for: device, opaqueValue: opaque, bundleIdentifier: "com.example.app"),
            creationDate: created, inAppPurchases: purchases, originalApplicationVersion: "1.0")
    }

    /// A test-root verifier.
    static func verifier() throws -> ReceiptVerifier {
        try ReceiptVerifier(trustedRoots: [.openStoreKitTestRoot])
    }
}
