import Foundation
import StoreModels

extension StoreState {
    /// Sets the app account token of the purchase that began with `originalID`
    /// (``SimulatedStore/setAppAccountToken(_:originalTransactionID:)``) and returns the record that now carries it.
    ///
    /// The token is written, in lowercase, as the application username of the purchase's current transaction: the
    /// purchase itself for a one-time purchase, the latest period for an auto-renewable subscription. Later renewals
    /// take it from there, and the renewal info reads it from the latest period; earlier periods keep theirs
    /// (docs/decisions.md 94).
    mutating func setAppAccountToken(_ token: UUID, originalID: UInt64) throws(StoreSimulatorError)
        -> TransactionRecord
    {
        guard let original = records[originalID], original.state == .purchased else {
            throw SimulatedStore.unknownTransaction(originalID)
        }
        guard original.originalID == originalID else {
            throw StoreSimulatorError(
                .invalidAction,
                "\(originalID) is not an original transaction identifier: its purchase began with \(original.originalID)"
            )
        }
        guard !original.isFamilyShared else {
            throw StoreSimulatorError(
                .invalidAction,
                "\(originalID) is shared through Family Sharing: only the purchaser's transaction takes an app account token"
            )
        }
        var current = original
        if let subscription = subscriptions.values(originalID: originalID).first,
            let latest = records[subscription.latestRecordID]
        {
            current = latest
        }
        current.applicationUsername = token.uuidString.lowercased()
        records[current.id] = current
        return current
    }
}
