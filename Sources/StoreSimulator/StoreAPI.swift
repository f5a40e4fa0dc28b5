/// A store operation that a test can make fail on purpose.
public enum StoreAPI: String, Sendable, Hashable, Codable, CaseIterable {
    /// Loading products (`SKProductsRequest`).
    case loadProducts
    /// Buying (`SKPaymentQueue.add(_:)`).
    case purchase
    /// Restoring completed transactions (App Store sync).
    case restore
    /// Refreshing the app receipt (`SKReceiptRefreshRequest`).
    case receiptRefresh
}
