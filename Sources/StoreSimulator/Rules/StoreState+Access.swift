import Foundation
import StoreModels
import Synchronization

extension StoreState {
    /// The billing state of the subscription an account has in a product's group, when its current period is of that
    /// product.
    ///
    /// An account with no subscription in the group that has a family member's current period of the product through
    /// Family Sharing has the billing state of that member's subscription: the subscription is the purchaser's.
    func billing(of productID: String, account: String) -> ProductAccess.Billing? {
        guard let groupID = configuration.catalog.product(productID)?.subscription?.groupID else { return nil }
        guard let subscription = subscriptions[Self.subscriptionKey(account: account, groupID: groupID)] else {
            return families[account] == nil ? nil : sharedBilling(of: productID, groupID: groupID, account: account)
        }
        return subscription.productID == productID ? subscription.billing : nil
    }

    /// The billing state of the purchaser's subscription whose current period `account` has through its family.
    private func sharedBilling(of productID: String, groupID: String, account: String) -> ProductAccess.Billing? {
        let shared = Set(records.records(of: account, productID: productID).compactMap(\.sharedFromID))
        guard !shared.isEmpty else { return nil }
        for purchaser in familyMembers(of: account) {
            if let subscription = subscriptions[Self.subscriptionKey(account: purchaser, groupID: groupID)],
                subscription.productID == productID, shared.contains(subscription.latestRecordID)
            {
                return subscription.billing
            }
        }
        return nil
    }
}
