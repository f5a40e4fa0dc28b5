// A purchase log as iOS apps write one, importing only StoreKit: on Apple's platforms `import StoreKit` makes
// Foundation visible, so files like this one use `Date`, `Data`, `UUID`, `Decimal`, `NSObject`, `JSONEncoder` and
// `LocalizedError` without importing it. Keep this file's only import StoreKit.
import StoreKit

/// One purchase as the app records it.
struct LoggedPurchase: Codable, Equatable {
    var productID: String
    var transactionID: UInt64
    var purchaseDate: Date
    var price: Decimal?
    var appAccountToken: UUID?
}

/// Why the log refuses a purchase.
enum PurchaseLogError: LocalizedError {
    case unverified(productID: String)

    var errorDescription: String? {
        switch self {
        case .unverified(let productID): "The purchase of \(productID) could not be verified."
        }
    }
}

/// Records verified StoreKit 2 transactions, and hears StoreKit 1's queue as an `NSObject` observer.
final class PurchaseLog: NSObject, SKPaymentTransactionObserver {
    private(set) var entries: [LoggedPurchase] = []
    private(set) var queueStates: [SKPaymentTransactionState] = []

    /// Records a transaction if StoreKit verified it.
    func record(_ result: VerificationResult<Transaction>) throws {
        guard case .verified(let transaction) = result else {
            throw PurchaseLogError.unverified(productID: result.unsafePayloadValue.productID)
        }
        entries.append(
            LoggedPurchase(
                productID: transaction.productID, transactionID: transaction.id,
                purchaseDate: transaction.purchaseDate, price: transaction.price,
                appAccountToken: transaction.appAccountToken))
    }

    /// The log as JSON, as the app would send it to its server.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(entries)
    }

    /// The log read back from JSON.
    static func decode(_ data: Data) throws -> [LoggedPurchase] {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode([LoggedPurchase].self, from: data)
    }

    func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
        for transaction in transactions {
            queueStates.append(transaction.transactionState)
            if transaction.transactionState == .purchased { queue.finishTransaction(transaction) }
        }
    }
}
