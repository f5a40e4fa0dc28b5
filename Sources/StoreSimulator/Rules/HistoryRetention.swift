/// Which finished transactions a store keeps in its history.
public enum HistoryRetention: Sendable, Hashable {
    /// Everything, as StoreKit testing does: `allTransactions()` lists finished consumables and failed purchases.
    case all
    /// Only what an app receipt lists: finished consumables and finished failed purchases are dropped, so memory stays
    /// flat however many consumables are bought. For load runs.
    case receiptOnly
}
