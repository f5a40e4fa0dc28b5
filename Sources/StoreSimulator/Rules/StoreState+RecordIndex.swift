import StoreModels

extension StoreState {
    /// Whether an account has a record satisfying a predicate of a product that the catalog, as it is now, puts in a
    /// subscription group. Looks only at that account's products.
    func hasRecord(
        of account: String,
        inGroup groupID: String,
        where predicate: (TransactionRecord) -> Bool
    ) -> Bool {
        guard let productIDs = records.productIDs(of: account) else { return false }
        for productID in productIDs where configuration.catalog.product(productID)?.subscription?.groupID == groupID {
            if records.first(of: account, productID: productID, where: predicate) != nil { return true }
        }
        return false
    }

    /// The oldest record an account owns of a product (purchased, not cancelled).
    func ownedRecord(of account: String, productID: String) -> TransactionRecord? {
        records.first(of: account, productID: productID) { $0.isOwned }
    }

    /// The subscription that began with a transaction: looked for among the subscriptions of that transaction's
    /// account, then, if it is not there (no such record), among every subscription.
    func subscription(originalID: UInt64) -> SubscriptionState? {
        if let account = records[originalID]?.account,
            let match = subscriptions.values(of: account).last(where: { $0.originalID == originalID })
        {
            return match
        }
        var match: SubscriptionState?
        subscriptions.visit { if $0.originalID == originalID { match = $0 } }
        return match
    }
}
