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

    /// The subscription that began with a transaction: the last of those of that transaction's account, or, if it has
    /// none (no such record), the last of any account, found through the subscriptions' index by record.
    func subscription(originalID: UInt64) -> SubscriptionState? {
        let matches = subscriptions.values(originalID: originalID)
        if let account = records[originalID]?.account, let match = matches.last(where: { $0.account == account }) {
            return match
        }
        return matches.last
    }
}
