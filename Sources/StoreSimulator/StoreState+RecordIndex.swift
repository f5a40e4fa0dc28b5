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
}
