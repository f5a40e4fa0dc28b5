import Foundation

extension TransactionRecord {
    /// The facts of this record that access depends on; `nil` unless it is purchased (failed, pending and deferred
    /// records grant nothing).
    public var accessPurchase: ProductAccess.Purchase? {
        guard state == .purchased else { return nil }
        return ProductAccess.Purchase(
            purchaseDate: purchaseDate,
            expiresDate: expirationDate,
            cancellationDate: cancellationDate,
            isUpgraded: isUpgraded
        )
    }
}
