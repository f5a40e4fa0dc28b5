import Foundation
import StoreModels
import Synchronization

extension StoreState {
    /// The record of a transaction waiting for Ask to Buy approval.
    func pendingAskToBuy(_ id: UInt64) throws(StoreSimulatorError) -> TransactionRecord {
        guard let record = records[id] else { throw SimulatedStore.unknownTransaction(id) }
        guard record.state == .deferred, record.pendingAskToBuyConfirmation else {
            throw StoreSimulatorError(
                .invalidAction,
                "transaction \(id) is \(record.state.name), not waiting for Ask to Buy approval"
            )
        }
        return record
    }
}
