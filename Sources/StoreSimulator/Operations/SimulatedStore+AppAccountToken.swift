public import Foundation
public import StoreModels
import Synchronization

extension SimulatedStore {
    /// Sets the app account token of a purchase, as the App Store Server API's Set App Account Token does: the
    /// purchase's current transaction (the purchase itself, or a subscription's latest period) carries the token from
    /// now on, in the signed transaction, the renewal info and StoreKit 2's `Transaction.appAccountToken`, and the
    /// subscription's later renewals carry it too; earlier periods keep the token they had.
    ///
    /// The token is kept as the transaction's `TransactionRecord.applicationUsername`, in lowercase, as a
    /// purchase made with the token would have it. A durable store records the change in its journal.
    ///
    /// - Parameters:
    ///   - token: The new app account token.
    ///   - originalID: The original transaction identifier of the purchase.
    /// - Returns: The transaction that now carries the token.
    /// - Throws: `unknownTransaction` when no purchased transaction has the identifier; `invalidAction` when it is not
    ///   an original transaction identifier, or names a transaction shared through Family Sharing.
    @discardableResult
    public func setAppAccountToken(_ token: UUID, originalTransactionID originalID: UInt64)
        throws(StoreSimulatorError) -> TransactionRecord
    {
        journal?.begin(.operation(.setAppAccountToken(token, originalTransactionID: originalID)))
        defer { journal?.end() }
        return try state.withLock { state throws(StoreSimulatorError) in
            try state.setAppAccountToken(token, originalID: originalID)
        }
    }
}
