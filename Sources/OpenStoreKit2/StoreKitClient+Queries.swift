import Foundation
import StoreModels
import StoreSimulator

extension StoreKitClient {
    /// The account's purchased records, oldest first, without finished consumables (unless refunded).
    private func visibleRecords() -> [TransactionRecord] {
        let unfinished = Set(link.unfinished.compactMap(\.recordID))
        return store.transactions(of: account).filter { record in
            record.state == .purchased
                && (record.productType != .consumable || record.cancellationDate != nil
                    || unfinished.contains(record.id))
        }
    }

    func all() async -> [VerificationResult<Transaction>] {
        await store.idle()
        return visibleRecords().compactMap { transactionResult($0.id) }
    }

    func latest(for productID: String) async -> VerificationResult<Transaction>? {
        await store.idle()
        guard let record = visibleRecords().last(where: { $0.productID == productID }) else { return nil }
        return transactionResult(record.id)
    }

    func currentEntitlements() async -> [VerificationResult<Transaction>] {
        await store.idle()
        return entitlementRecordIDs().compactMap { transactionResult($0) }
    }

    func currentEntitlement(for productID: String) async -> VerificationResult<Transaction>? {
        await store.idle()
        let records = store.transactions(of: account)
        let ids = Set(entitlementRecordIDs())
        guard let record = records.last(where: { ids.contains($0.id) && $0.productID == productID }) else {
            return nil
        }
        return transactionResult(record.id)
    }

    /// The records that entitle the account now, oldest first.
    func entitlementRecordIDs() -> [UInt64] {
        let records = store.transactions(of: account).filter { $0.isOwned }
        var ids: [UInt64] = []
        var latestNonConsumable: [String: UInt64] = [:]
        for record in records {
            switch record.productType {
            case .nonConsumable: latestNonConsumable[record.productID] = record.id
            case .nonRenewingSubscription: ids.append(record.id)
            case .autoRenewableSubscription:
                // A family member's shared period entitles while it is the current period of the purchaser's
                // subscription, active or in grace period.
                if let source = record.sharedFromID.flatMap(store.transaction),
                    store.subscriptions(of: source.account).contains(where: {
                        $0.latestRecordID == source.id && ($0.phase == .active || $0.phase == .gracePeriod)
                    })
                {
                    ids.append(record.id)
                }
            case .consumable: break
            }
        }
        ids.append(contentsOf: latestNonConsumable.values)
        for subscription in store.subscriptions(of: account)
        where subscription.phase == .active || subscription.phase == .gracePeriod {
            if let record = store.transaction(subscription.latestRecordID), record.isOwned { ids.append(record.id) }
        }
        return ids.sorted()
    }

    func unfinished() async -> [VerificationResult<Transaction>] {
        await store.idle()
        return unfinishedResults()
    }

    /// The device's unfinished purchased transactions, signed.
    func unfinishedResults() -> [VerificationResult<Transaction>] {
        link.unfinished.filter { $0.state == .purchased }.compactMap(\.recordID).compactMap { transactionResult($0) }
    }

    func statuses(groupID: String) async throws -> [Product.SubscriptionInfo.Status] {
        try controls.check(.subscriptionStatus)
        await store.idle()
        return statusesNow(groupID: groupID)
    }

    /// The statuses of a group as the store stands.
    func statusesNow(groupID: String) -> [Product.SubscriptionInfo.Status] {
        guard let subscription = store.subscription(groupID: groupID, account: account),
            let transaction = transactionResult(subscription.latestRecordID),
            let renewalInfo = renewalInfoResult(originalID: subscription.originalID)
        else { return [] }
        let state: Product.SubscriptionInfo.RenewalState
        switch subscription.phase {
        case .active: state = .subscribed
        case .gracePeriod: state = .inGracePeriod
        case .billingRetry: state = .inBillingRetryPeriod
        case .expired:
            state = store.transaction(subscription.latestRecordID)?.cancellationDate != nil ? .revoked : .expired
        }
        return [Product.SubscriptionInfo.Status(state: state, transaction: transaction, renewalInfo: renewalInfo)]
    }

    func isEligibleForIntroOffer(groupID: String) async -> Bool {
        await store.idle()
        let catalog = store.catalog
        return !store.transactions(of: account).contains { record in
            record.state == .purchased && catalog.product(record.productID)?.subscription?.groupID == groupID
        }
    }

    func appTransaction() async throws -> VerificationResult<AppTransaction> {
        try controls.check(.appTransaction)
        await store.idle()
        guard let result = appTransactionResult() else { throw StoreKitError.unknown }
        return result
    }
}
