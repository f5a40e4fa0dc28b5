import Foundation
import StoreModels
import StoreSimulator

extension StoreKitClient {
    /// The account's history as a device lists it (the store's rule): without finished consumables, unless refunded.
    private func visibleRecords() -> [TransactionRecord] {
        store.transactionHistory(of: account, view: .device(unfinished: Set(link.unfinished.compactMap(\.recordID))))
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
        guard let record = store.currentEntitlements(of: account).last(where: { $0.productID == productID }) else {
            return nil
        }
        return transactionResult(record.id)
    }

    /// The records that entitle the account now, oldest first: the store's.
    func entitlementRecordIDs() -> [UInt64] {
        store.currentEntitlements(of: account).map(\.id)
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

    /// The catalog's subscription groups, in the order their first products are listed.
    func subscriptionGroupIDs() -> [String] {
        var seen = Set<String>()
        return store.catalog.products.compactMap(\.subscription?.groupID).filter { seen.insert($0).inserted }
    }

    /// The statuses of a group as the store stands: the account's own subscription and those its family shares with
    /// it, each with the store's status.
    func statusesNow(groupID: String) -> [Product.SubscriptionInfo.Status] {
        store.subscriptionStatuses(of: account, groupID: groupID).compactMap { status in
            guard let transaction = transactionResult(status.transactionID),
                let renewalInfo = renewalInfoResult(originalID: status.originalID)
            else { return nil }
            let state: Product.SubscriptionInfo.RenewalState =
                switch status.code {
                case .active: .subscribed
                case .expired: .expired
                case .billingRetry: .inBillingRetryPeriod
                case .gracePeriod: .inGracePeriod
                case .revoked: .revoked
                }
            return Product.SubscriptionInfo.Status(state: state, transaction: transaction, renewalInfo: renewalInfo)
        }
    }

    /// The status of the subscription a transaction of the account belongs to, or nil for a transaction of another
    /// account, of no subscription, or unknown.
    func status(transactionID: UInt64) async throws -> Product.SubscriptionInfo.Status? {
        try controls.check(.subscriptionStatus)
        await store.idle()
        guard let record = store.transaction(transactionID), record.account == account,
            let groupID = store.catalog.product(record.productID)?.subscription?.groupID
        else { return nil }
        return statusesNow(groupID: groupID).first { $0.transaction.unsafePayloadValue.originalID == record.originalID }
    }

    func isEligibleForIntroOffer(groupID: String) async -> Bool {
        await store.idle()
        return store.isEligibleForIntroductoryOffer(groupID: groupID, account: account)
    }

    func appTransaction() async throws -> VerificationResult<AppTransaction> {
        try controls.check(.appTransaction)
        await store.idle()
        guard let result = appTransactionResult() else { throw StoreKitError.unknown }
        return result
    }
}
