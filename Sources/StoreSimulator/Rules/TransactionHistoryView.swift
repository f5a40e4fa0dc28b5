/// Which of an account's transactions a view of its purchase history lists
/// (``SimulatedStore/transactionHistory(of:view:)``): every view lists purchased transactions only (no failed, pending
/// or deferred ones), oldest first, and the views differ in the consumables they keep.
public enum TransactionHistoryView: Sendable, Hashable {
    /// StoreKit 2's `Transaction.all` and `Transaction.latest(for:)` on a device: finished consumables are left out
    /// unless refunded; `unfinished` are the record identifiers of the device's unfinished transactions.
    case device(unfinished: Set<UInt64>)
    /// The App Store Server API's Get Transaction History v1: consumables only when refunded, or unfinished on a
    /// device of the account (not yet finished by the app), as Apple documents it.
    case serverVersion1
    /// Get Transaction History v2 (API 1.12 on): every purchased transaction, finished consumables included.
    case serverVersion2
}
