import StoreSimulator

extension SKTestSession {
    /// A StoreKit operation a session can make fail on purpose (`SKTestSession.setSimulatedError(_:forAPI:)`).
    public enum FailableAPI: Sendable, Hashable, CaseIterable {
        /// Loading products: `SKProductsRequest` fails with the error.
        case loadProducts
        /// Buying: payment-queue transactions end `.failed` with the error.
        case purchase
        /// Restoring: `restoreCompletedTransactions()` ends in `restoreCompletedTransactionsFailedWithError`.
        case restore
        /// Refreshing the app receipt (`SKReceiptRefreshRequest`).
        case receiptRefresh

        var storeAPI: StoreAPI {
            switch self {
            case .loadProducts: .loadProducts
            case .purchase: .purchase
            case .restore: .restore
            case .receiptRefresh: .receiptRefresh
            }
        }
    }
}
