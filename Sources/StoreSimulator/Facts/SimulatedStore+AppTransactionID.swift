import Foundation
import StoreModels
import Synchronization

extension SimulatedStore {
    /// The account whose app transaction identifier (the signed app transaction's `appTransactionId`) is `id`, among
    /// the accounts with a transaction in the store; `nil` when none has it. The App Store Server API's Get App
    /// Transaction Info takes one in place of a transaction identifier.
    public func account(ofAppTransactionID id: String) -> String? {
        state.withLock { state in
            state.records.accountNames.first { SignedPayloadMapping.appTransactionID(account: $0) == id }
        }
    }
}
