#if Server
    import Foundation
    import StoreModels
    import StoreSimulator

    /// What the server last saw of a store, to tell what changed since: each purchased record (refunded or not) and
    /// each subscription's renewal settings.
    struct ObservedStore: Sendable {
        struct Subscription: Sendable, Hashable {
            var account: String
            var groupID: String
            var productID: String
            var renewalProductID: String
            var autoRenew: Bool
            var pendingPriceIncrease: Bool
            var phase: SubscriptionState.Phase
            var latestRecordID: UInt64
        }

        /// Purchased records: whether each is refunded.
        var refunded: [UInt64: Bool] = [:]
        /// Subscriptions by original transaction.
        var subscriptions: [UInt64: Subscription] = [:]

        init() {}

        /// What `store` holds now.
        init(_ store: SimulatedStore) {
            var accounts = Set<String>()
            for record in store.allTransactions() where record.state == .purchased {
                refunded[record.id] = record.cancellationDate != nil
                accounts.insert(record.account)
            }
            for account in accounts.sorted() {
                for subscription in store.subscriptions(of: account) {
                    subscriptions[subscription.originalID] = Subscription(
                        account: subscription.account, groupID: subscription.groupID, productID: subscription.productID,
                        renewalProductID: subscription.renewalProductID, autoRenew: subscription.autoRenew,
                        pendingPriceIncrease: subscription.pendingPriceIncrease, phase: subscription.phase,
                        latestRecordID: subscription.latestRecordID)
                }
            }
        }
    }

    extension ObservedStore {
        /// The notifications Apple sends for what happened between `self` and `now`: first the subscription events the
        /// store reported (renewals, billing issues, expiries), in their order, then purchases and refunds by transaction
        /// id, then changes of renewal settings.
        func changes(
            to now: ObservedStore, events: [SubscriptionEvent], store: SimulatedStore
        ) -> [PendingNotification] {
            var result: [PendingNotification] = []
            var renewals = Set<UInt64>()
            var touched = Set<UInt64>()
            var index = 0
            func latest(_ originalID: UInt64) -> UInt64 {
                now.subscriptions[originalID]?.latestRecordID ?? originalID
            }
            while index < events.count {
                let event = events[index]
                index += 1
                touched.insert(event.originalID)
                let original = event.originalID
                switch event.kind {
                case .renewed:
                    if let id = event.transactionID { renewals.insert(id) }
                    result.append(
                        .init(type: "DID_RENEW", transactionID: event.transactionID, originalID: original, status: 1))
                case .recovered:
                    if let id = event.transactionID { renewals.insert(id) }
                    result.append(
                        .init(
                            type: "DID_RENEW", subtype: "BILLING_RECOVERY", transactionID: event.transactionID,
                            originalID: original, status: 1))
                case .renewalFailed:
                    if index < events.count, events[index].originalID == original,
                        events[index].kind == .gracePeriodStarted
                    {
                        index += 1
                        result.append(
                            .init(
                                type: "DID_FAIL_TO_RENEW", subtype: "GRACE_PERIOD", transactionID: latest(original),
                                originalID: original, status: 4))
                    } else {
                        result.append(
                            .init(
                                type: "DID_FAIL_TO_RENEW", transactionID: latest(original), originalID: original,
                                status: 3))
                    }
                case .gracePeriodStarted:
                    result.append(
                        .init(
                            type: "DID_FAIL_TO_RENEW", subtype: "GRACE_PERIOD", transactionID: latest(original),
                            originalID: original, status: 4))
                case .gracePeriodEnded:
                    result.append(
                        .init(
                            type: "GRACE_PERIOD_EXPIRED", transactionID: latest(original), originalID: original,
                            status: 3))
                case .billingRetryFailed:
                    break
                case .expired(let reason):
                    let subtype: String?
                    switch reason {
                    case .autoRenewDisabled: subtype = "VOLUNTARY"
                    case .billingRetryEnded: subtype = "BILLING_RETRY"
                    case .priceIncreaseNotConsented: subtype = "PRICE_INCREASE"
                    case .productUnavailable: subtype = "PRODUCT_NOT_FOR_SALE"
                    case .expiredByTest: subtype = nil
                    case .refunded: continue  // the REFUND says it
                    }
                    result.append(
                        .init(
                            type: "EXPIRED", subtype: subtype, transactionID: latest(original), originalID: original,
                            status: 2))
                }
            }
            let records = store.allTransactions().filter { $0.state == .purchased }
            for record in records {
                if let wasRefunded = refunded[record.id] {
                    let isSubscription = record.productType == .autoRenewableSubscription
                    if !wasRefunded, record.cancellationDate != nil {
                        result.append(
                            .init(
                                type: "REFUND", transactionID: record.id, originalID: record.originalID,
                                status: isSubscription ? 5 : nil))
                    } else if wasRefunded, record.cancellationDate == nil {
                        // The reversal gives back what the refund took: its renewal settings are no change of their own.
                        touched.insert(record.originalID)
                        result.append(
                            .init(
                                type: "REFUND_REVERSED", transactionID: record.id, originalID: record.originalID,
                                status: isSubscription ? Self.status(now.subscriptions[record.originalID]?.phase) : nil)
                        )
                    }
                    continue
                }
                guard !renewals.contains(record.id), record.cancellationDate == nil else { continue }
                guard record.productType == .autoRenewableSubscription else {
                    result.append(
                        .init(type: "ONE_TIME_CHARGE", transactionID: record.id, originalID: record.originalID))
                    continue
                }
                touched.insert(record.originalID)
                if let before = subscriptions[record.originalID], before.phase != .expired {
                    result.append(
                        .init(
                            type: "DID_CHANGE_RENEWAL_PREF", subtype: "UPGRADE", transactionID: record.id,
                            originalID: record.originalID, status: 1))
                    continue
                }
                let group = store.catalog.product(record.productID)?.subscription?.groupID
                let earlier = records.contains {
                    $0.id < record.id && $0.account == record.account && $0.productType == .autoRenewableSubscription
                        && store.catalog.product($0.productID)?.subscription?.groupID == group
                }
                result.append(
                    .init(
                        type: "SUBSCRIBED", subtype: earlier ? "RESUBSCRIBE" : "INITIAL_BUY", transactionID: record.id,
                        originalID: record.originalID, status: 1))
            }
            for (original, current) in now.subscriptions.sorted(by: { $0.key < $1.key }) {
                guard !touched.contains(original), let before = subscriptions[original], current.phase != .expired,
                    before.productID == current.productID
                else { continue }
                let transaction = current.latestRecordID
                if before.autoRenew != current.autoRenew {
                    result.append(
                        .init(
                            type: "DID_CHANGE_RENEWAL_STATUS",
                            subtype: current.autoRenew ? "AUTO_RENEW_ENABLED" : "AUTO_RENEW_DISABLED",
                            transactionID: transaction, originalID: original, status: 1))
                }
                if before.renewalProductID != current.renewalProductID {
                    result.append(
                        .init(
                            type: "DID_CHANGE_RENEWAL_PREF",
                            subtype: current.renewalProductID == current.productID ? nil : "DOWNGRADE",
                            transactionID: transaction, originalID: original, status: 1))
                }
                if !before.pendingPriceIncrease, current.pendingPriceIncrease {
                    result.append(
                        .init(
                            type: "PRICE_INCREASE", subtype: "PENDING", transactionID: transaction,
                            originalID: original,
                            status: 1))
                } else if before.pendingPriceIncrease, !current.pendingPriceIncrease, current.autoRenew {
                    result.append(
                        .init(
                            type: "PRICE_INCREASE", subtype: "ACCEPTED", transactionID: transaction,
                            originalID: original,
                            status: 1))
                }
            }
            return result
        }

        /// Apple's subscription `status` for a phase: 1 active, 2 expired, 3 billing retry, 4 grace period.
        private static func status(_ phase: SubscriptionState.Phase?) -> Int? {
            switch phase {
            case .active: 1
            case .expired: 2
            case .billingRetry: 3
            case .gracePeriod: 4
            case nil: nil
            }
        }
    }
#endif
