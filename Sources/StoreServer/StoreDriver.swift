#if Server
    import Foundation
    import ReceiptKit
    import StoreModels
    import StoreSimulator
    import Synchronization

    /// Every change the server makes to its store goes through here, one at a time: the change, the store's lane run
    /// until idle, then the notifications for what changed (from the store's subscription events and a comparison with
    /// what the server saw before), then the retries the store's clock reached.
    final class StoreDriver: Sendable {
        let store: SimulatedStore
        let signed: SignedStoreData
        let notifications: NotificationSender
        let environment: JWSEnvironment
        private let state: Mutex<State>
        private let inbox = EventInbox()
        private let observerToken: Mutex<SubscriptionObserverToken?> = Mutex(nil)

        private struct State {
            var observed: ObservedStore
            var consumption: [UInt64: ConsumptionRequest] = [:]
            var massExtensions: [String: MassExtensionStatus] = [:]
        }

        init(
            store: SimulatedStore, signed: SignedStoreData, notifications: NotificationSender,
            environment: JWSEnvironment
        ) {
            self.store = store
            self.signed = signed
            self.notifications = notifications
            self.environment = environment
            store.runUntilIdle()
            state = Mutex(State(observed: ObservedStore(store)))
            let inbox = self.inbox
            observerToken.withLock { token in
                token = store.addSubscriptionObserver { event in inbox.events.withLock { $0.append(event) } }
            }
        }

        /// Stops listening to the store.
        func stop() {
            if let token = observerToken.withLock({ $0 }) { store.removeSubscriptionObserver(token) }
        }

        /// Makes a change to the store and sends the notifications it calls for.
        func perform<T>(_ change: (SimulatedStore) throws(StoreSimulatorError) -> T) throws(StoreSimulatorError) -> T {
            try state.withLock { state throws(StoreSimulatorError) -> T in
                let result = try change(store)
                settle(&state)
                return result
            }
        }

        /// Sends a notification the store cannot tell of by itself (a refund request, a declined refund, a test).
        func announce(_ notification: PendingNotification) {
            state.withLock { state in
                settle(&state)
                send(notification)
            }
        }

        /// Runs the lane, sends what changed, queues due retries.
        private func settle(_ state: inout State) {
            store.runUntilIdle()
            let happened = inbox.events.withLock { events -> [SubscriptionEvent] in
                defer { events = [] }
                return events
            }
            let now = ObservedStore(store)
            let changes = state.observed.changes(to: now, events: happened, store: store)
            state.observed = now
            for change in changes { send(change) }
            notifications.queueDueRetries()
        }

        private func send(_ notification: PendingNotification) {
            guard notifications.url != nil else { return }
            var data = NotificationPayload.DataObject(
                bundleId: store.app.bundleIdentifier, bundleVersion: store.app.applicationVersion,
                environment: environment.rawValue, status: notification.status,
                consumptionRequestReason: notification.consumptionRequestReason)
            if let id = notification.transactionID {
                data.signedTransactionInfo = try? signed.transaction(id)
                if let record = store.transaction(id), record.productType == .autoRenewableSubscription {
                    data.signedRenewalInfo = try? signed.renewalInfo(originalID: record.originalID)
                }
            }
            let payload = NotificationPayload(
                notificationType: notification.type, subtype: notification.subtype,
                notificationUUID: UUID().uuidString.lowercased(), data: data, summary: nil,
                signedDate: JWSDate(store.now).millisecondsSince1970)
            _ = try? notifications.post(payload, originalTransactionID: notification.originalID)
        }

        // MARK: Consumption information and extensions

        /// Keeps what a backend sent with Send Consumption Information.
        func recordConsumption(_ request: ConsumptionRequest, forTransaction id: UInt64) {
            state.withLock { $0.consumption[id] = request }
        }

        /// What a backend last sent with Send Consumption Information for a transaction.
        func consumption(forTransaction id: UInt64) -> ConsumptionRequest? {
            state.withLock { $0.consumption[id] }
        }

        /// Extends one subscription and sends RENEWAL_EXTENDED.
        func extend(originalID: UInt64, days: Int) throws(APIError) -> SubscriptionState {
            let extended: SubscriptionState
            do {
                extended = try perform { store throws(StoreSimulatorError) in
                    try store.extendRenewalDate(originalID: originalID, by: TimeInterval(days) * 86_400)
                }
            } catch {
                switch error.code {
                case .unknownTransaction: throw .originalTransactionIdNotFound
                case .noSubscription, .invalidAction: throw .subscriptionExtensionIneligible
                default: throw .generalInternal
                }
            }
            announce(
                PendingNotification(
                    type: "RENEWAL_EXTENDED", transactionID: extended.latestRecordID, originalID: originalID, status: 1)
            )
            return extended
        }

        /// Extends every active subscription to a product (in the given storefronts) and sends
        /// RENEWAL_EXTENSION/SUMMARY. Reusing a request identifier does nothing more, as Apple answers.
        func massExtend(productID: String, days: Int, requestIdentifier: String, storefronts: [String]?)
            throws(APIError)
        {
            let key = productID + "\n" + requestIdentifier
            guard state.withLock({ $0.massExtensions[key] }) == nil else { return }
            var succeeded: Int64 = 0
            var failed: Int64 = 0
            let storefront = store.settings.storefront.countryCode
            if storefronts.map({ $0.contains(storefront) }) ?? true {
                var accounts = Set<String>()
                for record in store.allTransactions() where record.productID == productID {
                    accounts.insert(record.account)
                }
                for account in accounts.sorted() {
                    for subscription in store.subscriptions(of: account)
                    where subscription.productID == productID && subscription.phase == .active {
                        do {
                            _ = try extend(originalID: subscription.originalID, days: days)
                            succeeded += 1
                        } catch {
                            failed += 1
                        }
                    }
                }
            }
            let status = MassExtensionStatus(
                requestIdentifier: requestIdentifier, complete: true,
                completeDate: JWSDate(store.now).millisecondsSince1970, succeededCount: succeeded, failedCount: failed)
            state.withLock { $0.massExtensions[key] = status }
            guard notifications.url != nil else { return }
            let payload = NotificationPayload(
                notificationType: "RENEWAL_EXTENSION", subtype: "SUMMARY",
                notificationUUID: UUID().uuidString.lowercased(),
                data: nil,
                summary: NotificationPayload.Summary(
                    environment: environment.rawValue, bundleId: store.app.bundleIdentifier, productId: productID,
                    requestIdentifier: requestIdentifier, storefrontCountryCodes: storefronts ?? [storefront],
                    succeededCount: succeeded, failedCount: failed),
                signedDate: JWSDate(store.now).millisecondsSince1970)
            _ = try notifications.post(payload, originalTransactionID: nil)
        }

        /// The status of a mass extension.
        func massExtension(productID: String, requestIdentifier: String) -> MassExtensionStatus? {
            state.withLock { $0.massExtensions[productID + "\n" + requestIdentifier] }
        }
    }

    /// The subscription events the store reported since the last change was settled.
    private final class EventInbox: Sendable {
        let events = Mutex<[SubscriptionEvent]>([])
    }
#endif
