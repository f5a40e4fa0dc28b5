public import StoreModels
import Synchronization

/// The facts every face of the store shows, each computed here once: StoreKit 1, StoreKit 2, the App Store server, the
/// purchase module and the feed expectations ask these functions and translate the answer, never decide it.
extension SimulatedStore {
    /// Apple's status of each subscription an account has: its own, one per group, by original transaction; then each
    /// subscription a family member shares with it, by original transaction. With `groupID`, those of one group.
    public func subscriptionStatuses(of account: String = SimulatedStore.defaultAccount, groupID: String? = nil)
        -> [StoreSubscriptionStatus]
    {
        state.withLock { state in
            state.loadRecords(of: account)
            return state.subscriptionStatuses(of: account, groupID: groupID)
        }
    }

    /// The transactions that entitle an account now, oldest first (StoreKit 2's `Transaction.currentEntitlements`):
    /// the latest owned transaction of each non-consumable, every owned non-renewing subscription, the current period
    /// of each own subscription that is active or in a billing grace period, and each shared period that is the
    /// current period of a purchaser's subscription in those phases.
    public func currentEntitlements(of account: String = SimulatedStore.defaultAccount) -> [TransactionRecord] {
        state.withLock { state in
            state.loadRecords(of: account)
            return state.entitlementRecordIDs(of: account).compactMap { state.records[$0] }
        }
    }

    /// Whether an account may still use the introductory offer of a subscription group: it never subscribed in it
    /// (a period shared by its family counts), and never had a free trial or introductory period there.
    public func isEligibleForIntroductoryOffer(groupID: String, account: String = SimulatedStore.defaultAccount)
        -> Bool
    {
        state.withLock { $0.isEligibleForIntroductoryOffer(account: account, groupID: groupID) }
    }

    /// The identifiers of the win-back offers an account may redeem in a subscription group now, best first: none
    /// until its subscription lapsed (expired, not in a billing grace period or billing retry), then those whose
    /// conditions the account meets (docs/decisions.md 96). A purchase with a win-back offer applies the same rule.
    public func eligibleWinBackOfferIDs(groupID: String, account: String = SimulatedStore.defaultAccount) -> [String] {
        let now = clock.now
        return state.withLock {
            $0.eligibleWinBackOffers(account: account, groupID: groupID, now: now).compactMap(\.identifier)
        }
    }

    /// The transactions a view of an account's purchase history lists, oldest first.
    public func transactionHistory(of account: String = SimulatedStore.defaultAccount, view: TransactionHistoryView)
        -> [TransactionRecord]
    {
        let (records, view) = state.withLock { state in
            state.loadRecords(of: account)
            return (state.records(of: account), state.resolved(view, account: account))
        }
        return records.filter { StoreState.isListed($0, in: view) }
    }

    /// The customer a transaction belongs to, read under one acquisition of the store's lock: the transaction, the
    /// payload mapping as the store stands, and the parts asked for (the account's records, its subscription statuses
    /// with what their renewal info is signed from). `nil` when no transaction has the identifier.
    public func customer(ofTransaction id: UInt64, including parts: StoreCustomer.Parts = []) -> StoreCustomer? {
        let environment = jwsEnvironment
        let now = clock.now
        return state.withLock { state -> StoreCustomer? in
            if !parts.isEmpty { state.loadRecords(holding: id) }
            guard let transaction = state.records[id] else { return nil }
            let account = transaction.account
            var statuses: [StoreSubscriptionStatus] = []
            var renewals: [UInt64: StoreState.RenewalSource] = [:]
            var latest: [UInt64: TransactionRecord] = [:]
            if parts.contains(.subscriptionStatuses) {
                statuses = state.subscriptionStatuses(of: account, groupID: nil)
                for status in statuses {
                    renewals[status.originalID] = state.renewalSource(
                        originalTransactionID: status.originalID, now: now)
                    latest[status.transactionID] = state.records[status.transactionID]
                }
            }
            let history = parts.contains(.history)
            return StoreCustomer(
                transaction: transaction, records: history ? state.records(of: account) : [],
                unfinishedRecordIDs: history ? state.unfinishedRecordIDs(of: account) : [],
                subscriptionStatuses: statuses,
                payloadMapping: payloadMapping(of: state, environment: environment),
                renewals: renewals, latestTransactions: latest)
        }
    }
}
