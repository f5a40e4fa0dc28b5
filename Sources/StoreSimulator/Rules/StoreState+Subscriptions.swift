import Foundation
import StoreModels
import Synchronization

extension StoreState {
    /// The key of the subscription a transaction belongs to.
    func subscriptionKey(forTransaction id: UInt64) throws(StoreSimulatorError) -> String {
        guard let record = records[id] else { throw SimulatedStore.unknownTransaction(id) }
        guard record.productType == .autoRenewableSubscription,
            let groupID = configuration.catalog.product(record.productID)?.subscription?.groupID
        else {
            throw StoreSimulatorError(
                .invalidProductType,
                "transaction \(id) is for \(record.productID), which is not an auto-renewable subscription"
            )
        }
        let key = Self.subscriptionKey(account: record.account, groupID: groupID)
        guard let subscription = subscriptions[key], subscription.originalID == record.originalID else {
            throw StoreSimulatorError(.noSubscription, "transaction \(id) belongs to no current subscription")
        }
        return key
    }

    /// The key of an account's running (not expired) subscription to a product, or to the group the product is in when
    /// the subscription renews to it.
    func runningSubscriptionKey(productID: String, account: String) throws(StoreSimulatorError) -> String {
        guard let product = configuration.catalog.product(productID) else {
            throw StoreSimulatorError(.unknownProduct, "no product has identifier \(productID) in the store's catalog")
        }
        guard let info = product.subscription else {
            throw StoreSimulatorError(
                .invalidProductType,
                "\(productID) is \(product.type.rawValue), not an auto-renewable subscription"
            )
        }
        let key = Self.subscriptionKey(account: account, groupID: info.groupID)
        guard let subscription = subscriptions[key], subscription.phase != .expired,
            subscription.productID == productID || subscription.renewalProductID == productID
        else {
            throw StoreSimulatorError(
                .noSubscription,
                "account \(account) has no running subscription to \(productID); buy it first"
            )
        }
        return key
    }
}
