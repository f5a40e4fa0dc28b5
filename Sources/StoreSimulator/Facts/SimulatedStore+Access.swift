import Foundation
public import StoreModels
import Synchronization

extension SimulatedStore {
    /// Whether an account has access to a product now, and why, as `ProductAccess` defines it: from the account's
    /// purchases of the product and, for an auto-renewable subscription, the billing state of its subscription.
    public func access(to productID: String, account: String = SimulatedStore.defaultAccount) -> ProductAccess {
        let now = clock.now
        return state.withLock { state in
            let purchases = state.records.records(of: account, productID: productID).compactMap(\.accessPurchase)
            return ProductAccess(purchases: purchases, billing: state.billing(of: productID, account: account), at: now)
        }
    }

    /// The billing state of an account's subscriptions whose renewal failed, by the product of the current period:
    /// what a server learns from App Store notifications and receipts do not say. A subscription a family member shares
    /// with the account has the billing state of the purchaser's, as ``access(to:account:)`` takes it.
    public func billing(of account: String = SimulatedStore.defaultAccount) -> [String: ProductAccess.Billing] {
        state.withLock { state in
            var productIDs = Set(state.subscriptions.values(of: account).map(\.productID))
            for record in state.records(of: account)
            where record.isFamilyShared && record.productType == .autoRenewableSubscription {
                productIDs.insert(record.productID)
            }
            var result: [String: ProductAccess.Billing] = [:]
            for productID in productIDs {
                if let billing = state.billing(of: productID, account: account) { result[productID] = billing }
            }
            return result
        }
    }
}
