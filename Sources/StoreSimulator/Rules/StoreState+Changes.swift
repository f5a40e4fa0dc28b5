import Foundation
import StoreModels

extension StoreState {
    /// Keeps a change to tell the change observers, with the transaction as the history holds it now and the
    /// subscription given; does nothing (and builds nothing) while nobody observes.
    mutating func report(
        _ kind: StoreChange.Kind, at date: Date, transactionID: UInt64, subscription: SubscriptionState?
    ) {
        guard changes.isObserved, let record = records[transactionID] else { return }
        changes.changes.append(
            StoreChange(
                kind: kind, date: date, account: record.account, transaction: record, subscription: subscription))
    }

    /// Keeps a change of a subscription, about its latest transaction.
    mutating func report(_ kind: StoreChange.Kind, at date: Date, of subscription: SubscriptionState) {
        guard changes.isObserved else { return }
        report(kind, at: date, transactionID: subscription.latestRecordID, subscription: subscription)
    }
}
