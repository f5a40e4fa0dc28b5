import Foundation
import StoreModels
import Synchronization

extension StoreState {
    /// Apple's status of an account's own subscription.
    func statusCode(of subscription: SubscriptionState) -> StoreSubscriptionStatus.Code {
        Self.statusCode(
            of: subscription.phase, revoked: records[subscription.latestRecordID]?.cancellationDate != nil)
    }

    /// Apple's status of a subscription's phase; an expired one is revoked when its latest period was refunded.
    static func statusCode(of phase: SubscriptionState.Phase, revoked: Bool) -> StoreSubscriptionStatus.Code {
        switch phase {
        case .active: .active
        case .gracePeriod: .gracePeriod
        case .billingRetry: .billingRetry
        case .expired: revoked ? .revoked : .expired
        }
    }

    /// Apple's status of a subscription shared with an account, given its latest shared transaction: the purchaser's
    /// status while that transaction is the current period of the purchaser's subscription.
    func sharedStatusCode(of shared: TransactionRecord) -> StoreSubscriptionStatus.Code {
        if shared.cancellationDate != nil, !shared.isUpgraded { return .revoked }
        guard let source = shared.sharedFromID.flatMap({ records[$0] }),
            let groupID = configuration.catalog.product(source.productID)?.subscription?.groupID,
            let subscription = subscriptions[Self.subscriptionKey(account: source.account, groupID: groupID)],
            subscription.latestRecordID == source.id
        else { return .expired }
        return statusCode(of: subscription)
    }

    /// The statuses of ``SimulatedStore/subscriptionStatuses(of:groupID:)``.
    func subscriptionStatuses(of account: String, groupID: String?) -> [StoreSubscriptionStatus] {
        var result: [StoreSubscriptionStatus] = []
        for subscription in subscriptions.values(of: account).sorted(by: { $0.originalID < $1.originalID })
        where groupID == nil || subscription.groupID == groupID {
            result.append(
                StoreSubscriptionStatus(
                    groupID: subscription.groupID, originalID: subscription.originalID,
                    transactionID: subscription.latestRecordID, code: statusCode(of: subscription),
                    isFamilyShared: false))
        }
        var latestShared: [UInt64: TransactionRecord] = [:]
        for record in records(of: account)
        where record.isFamilyShared && record.state == .purchased && record.productType == .autoRenewableSubscription {
            if record.id > latestShared[record.originalID]?.id ?? 0 { latestShared[record.originalID] = record }
        }
        for (originalID, shared) in latestShared.sorted(by: { $0.key < $1.key }) {
            guard let group = configuration.catalog.product(shared.productID)?.subscription?.groupID,
                groupID == nil || group == groupID
            else { continue }
            result.append(
                StoreSubscriptionStatus(
                    groupID: group, originalID: originalID, transactionID: shared.id,
                    code: sharedStatusCode(of: shared), isFamilyShared: true))
        }
        return result
    }

    /// The record identifiers of ``SimulatedStore/currentEntitlements(of:)``, oldest first.
    func entitlementRecordIDs(of account: String) -> [UInt64] {
        var ids: [UInt64] = []
        var latestNonConsumable: [String: UInt64] = [:]
        for record in records(of: account) where record.isOwned {
            switch record.productType {
            case .nonConsumable: latestNonConsumable[record.productID] = record.id
            case .nonRenewingSubscription: ids.append(record.id)
            case .autoRenewableSubscription:
                if record.isFamilyShared, sharedStatusCode(of: record).grantsAccess { ids.append(record.id) }
            case .consumable: break
            }
        }
        ids.append(contentsOf: latestNonConsumable.values)
        for subscription in subscriptions.values(of: account) where statusCode(of: subscription).grantsAccess {
            if let record = records[subscription.latestRecordID], record.isOwned { ids.append(record.id) }
        }
        return ids.sorted()
    }

    /// The records an account's devices hold unfinished.
    func unfinishedRecordIDs(of account: String) -> Set<UInt64> {
        var ids = Set<UInt64>()
        for deviceID in devices.ids(of: account) {
            guard let device = devices[deviceID] else { continue }
            for transaction in device.unfinished { if let id = transaction.recordID { ids.insert(id) } }
        }
        return ids
    }

    /// A view as it lists an account's records: Get Transaction History v1 lists the consumables a device of the
    /// account holds unfinished, as a device's own view does with the ones it holds.
    func resolved(_ view: TransactionHistoryView, account: String) -> TransactionHistoryView {
        view == .serverVersion1 ? .device(unfinished: unfinishedRecordIDs(of: account)) : view
    }

    /// Whether a view of the purchase history lists a record.
    static func isListed(_ record: TransactionRecord, in view: TransactionHistoryView) -> Bool {
        guard record.state == .purchased else { return false }
        guard record.productType == .consumable, record.cancellationDate == nil else { return true }
        switch view {
        case .device(let unfinished): return unfinished.contains(record.id)
        case .serverVersion1: return false
        case .serverVersion2: return true
        }
    }

    /// What the renewal info of a subscription is signed from: the subscription, its periods, and for a family
    /// member's shared subscription the member's original transaction, which the renewal info names.
    struct RenewalSource: Sendable {
        /// The subscription (a shared subscription's is the purchaser's).
        var subscription: SubscriptionState
        /// Its periods: the records of its original transaction, oldest first.
        var history: [TransactionRecord]
        /// The member's first shared transaction, for a shared subscription; `nil` for an account's own.
        var sharedOriginalID: UInt64?
        /// The win-back offers the subscriber may redeem, best first; empty for a shared subscription, whose member
        /// is not the subscriber.
        var eligibleWinBackOfferIDs: [String] = []
    }

    /// What the renewal info of the subscription that began with a transaction is signed from: an account's own
    /// subscription, or the purchaser's subscription a member's first shared transaction shares. `nil` when it is
    /// neither. `now` is the store's clock, at which the win-back offers the subscriber may redeem are found.
    func renewalSource(originalTransactionID id: UInt64, now: Date) -> RenewalSource? {
        if let match = subscription(originalID: id) {
            let history = records(of: match.account).filter { $0.originalID == id }
            return RenewalSource(
                subscription: match, history: history, sharedOriginalID: nil,
                eligibleWinBackOfferIDs: Self.eligibleWinBackOffers(
                    of: match, history: history, catalog: configuration.catalog, now: now
                ).compactMap(\.identifier))
        }
        guard let first = records[id], first.originalID == id, first.productType == .autoRenewableSubscription,
            let sourceID = first.sharedFromID, let source = records[sourceID],
            let match = subscription(originalID: source.originalID)
        else { return nil }
        return RenewalSource(
            subscription: match, history: records(of: match.account).filter { $0.originalID == source.originalID },
            sharedOriginalID: id)
    }
}
