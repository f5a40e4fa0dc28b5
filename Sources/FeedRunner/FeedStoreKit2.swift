import OpenStoreKit2

/// What the app of a feed did and heard through StoreKit 2, per device (seat): its drivers, its purchases by
/// handle, the transactions of each product it last got, and what its updates listener heard.
final class FeedStoreKit2 {
    /// A purchase made with `sk2 buy`.
    struct Purchase {
        var product: String
        var result: String
        var transactionID: UInt64?
        var verified: Bool?
    }

    /// StoreKit 2 on each seat's device.
    var drivers: [String: StoreKitDriver] = [:]
    /// The seats whose app listens to `Transaction.updates` (again after a restart).
    var listening: [String] = []
    /// Purchases by handle.
    var purchases: [String: Purchase] = [:]
    /// The latest transaction of each product a seat got through StoreKit 2 (purchase or update), by
    /// `seat + "\n" + product`, with its verification outcome.
    var latest: [String: (id: UInt64, verified: Bool)] = [:]
    /// The products of the updates each seat's listener heard, in order.
    var heard: [String: [String]] = [:]

    /// Whether StoreKit 2 verified a transaction.
    static func isVerified(_ result: VerificationResult<Transaction>) -> Bool {
        if case .verified = result { return true }
        return false
    }

    /// The transaction a reference names on a seat, with whether it was verified: an `sk2 buy` handle, or the latest
    /// StoreKit 2 transaction of a product.
    func transaction(_ reference: FeedStep.Reference, seat: String) -> (UInt64, Bool)? {
        switch reference {
        case .handle(let name):
            guard let purchase = purchases[name], let id = purchase.transactionID else { return nil }
            return (id, purchase.verified ?? false)
        case .product(let product):
            return latest[seat + "\n" + product].map { ($0.id, $0.verified) }
        }
    }
}

/// Lets a StoreKit 2 listener, which the store calls on its manual lane (the feed's own thread), reach the recorder.
struct FeedRecorderReference: @unchecked Sendable {
    // @unchecked: a feed runs on one thread; the listener is only called on its manual store's lane.
    unowned let recorder: FeedRecorder
}
