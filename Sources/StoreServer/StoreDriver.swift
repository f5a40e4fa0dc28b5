#if Server
    import Foundation
    import ReceiptKit
    import StoreModels
    import StoreSimulator
    import Synchronization

    /// Turns the store's changes into Server Notifications V2, and makes the server's own changes one at a time.
    ///
    /// The driver observes the store's change feed (``StoreSimulator/SimulatedStore/addChangeObserver(_:)``): every
    /// change the store applies, whoever made it (the control API, ``StoreServer/perform(_:)``, a device, a feed, a
    /// test moving the clock), is mapped to the notification type and subtype Apple sends for it, with the transaction
    /// and renewal info signed as they stood at the change, at its date. A change the server makes itself runs the
    /// store's lane after it, so its notifications are made before the request is answered.
    final class StoreDriver: StoreClockObserver {
        let store: SimulatedStore
        let signed: SignedStoreData
        let notifications: NotificationSender
        let environment: JWSEnvironment
        /// Held while the server makes a change, so that it makes one at a time.
        private let changing = Mutex(())
        private let observerToken: Mutex<ChangeObserverToken?> = Mutex(nil)

        init(
            store: SimulatedStore, signed: SignedStoreData, notifications: NotificationSender,
            environment: JWSEnvironment
        ) {
            self.store = store
            self.signed = signed
            self.notifications = notifications
            self.environment = environment
            store.runUntilIdle()
            let token = store.addChangeObserver { [weak self] change in self?.notify(change) }
            observerToken.withLock { $0 = token }
            store.addClockObserver(self)
        }

        /// Queues the retries a move of the store's clock reached, whoever moved it.
        func store(_ store: SimulatedStore, clockDidMoveTo date: Date) {
            notifications.queueDueRetries()
        }

        /// Stops listening to the store.
        func stop() {
            store.removeClockObserver(self)
            if let token = observerToken.withLock({ token in
                defer { token = nil }
                return token
            }) {
                store.removeChangeObserver(token)
            }
        }

        /// Applies an operation to the store, runs its lane (so the change's notifications are made) and queues the
        /// retries the store's clock reached. One operation at a time.
        @discardableResult
        func perform(_ operation: StoreOperation) throws(StoreSimulatorError) -> StoreOperation.Outcome {
            try perform { _ in operation }
        }

        /// Applies the operation `build` makes from the store as it stands, built under the same one-at-a-time lock,
        /// so that a change made relative to the store (settings changed field by field) loses no concurrent change.
        @discardableResult
        func perform(_ build: (SimulatedStore) -> StoreOperation) throws(StoreSimulatorError)
            -> StoreOperation.Outcome
        {
            try changing.withLock { _ throws(StoreSimulatorError) -> StoreOperation.Outcome in
                let outcome = try store.perform(build(store))
                store.runUntilIdle()
                // A change its durable store could not record is not answered as made.
                if store.isDurable, let failure = store.durabilityError { throw failure }
                notifications.queueDueRetries()
                return outcome
            }
        }

        /// Sends the notification a change calls for, if any; on the store's lane.
        private func notify(_ change: StoreChange) {
            guard let notification = Self.notification(for: change) else { return }
            send(notification, change: change)
        }

        /// The notification type, subtype and status Apple sends for a change (Server Notifications V2), or `nil` for
        /// changes Apple sends nothing for (a billing retry that failed again, a refund's expiry). A family member's
        /// shared transaction gets the notification of the purchaser's change (`ONE_TIME_CHARGE`, `SUBSCRIBED`,
        /// `DID_RENEW`) with its own transaction, and `REVOKE` when it is revoked. The status is the store's
        /// (``StoreSimulator/StoreChange/subscriptionStatus``).
        static func notification(for change: StoreChange) -> PendingNotification? {
            let transactionID = change.transaction.id
            let originalID = change.originalTransactionID
            let status = change.subscriptionStatus?.rawValue
            func make(_ type: String, _ subtype: String? = nil, status: Int? = status) -> PendingNotification {
                PendingNotification(
                    type: type, subtype: subtype, transactionID: transactionID, originalID: originalID, status: status)
            }
            switch change.kind {
            case .oneTimePurchase:
                return make("ONE_TIME_CHARGE", status: nil)
            case .subscribed(let resubscribed):
                return make("SUBSCRIBED", resubscribed ? "RESUBSCRIBE" : "INITIAL_BUY")
            case .upgraded:
                return make("DID_CHANGE_RENEWAL_PREF", "UPGRADE")
            case .renewalProductChanged(let productID):
                return make("DID_CHANGE_RENEWAL_PREF", productID == change.subscription?.productID ? nil : "DOWNGRADE")
            case .offerRedeemed(_, let productChange):
                switch productChange {
                case .sameProduct: return make("OFFER_REDEEMED")
                case .upgrade: return make("OFFER_REDEEMED", "UPGRADE")
                case .downgrade: return make("OFFER_REDEEMED", "DOWNGRADE")
                }
            case .renewed:
                return make("DID_RENEW")
            case .billingRecovered:
                return make("DID_RENEW", "BILLING_RECOVERY")
            case .renewalFailed(let gracePeriod):
                return make("DID_FAIL_TO_RENEW", gracePeriod ? "GRACE_PERIOD" : nil)
            case .gracePeriodEnded:
                return make("GRACE_PERIOD_EXPIRED")
            case .billingRetryFailed:
                return nil
            case .expired(let reason):
                switch reason {
                case .autoRenewDisabled: return make("EXPIRED", "VOLUNTARY")
                case .billingRetryEnded: return make("EXPIRED", "BILLING_RETRY")
                case .priceIncreaseNotConsented: return make("EXPIRED", "PRICE_INCREASE")
                case .productUnavailable: return make("EXPIRED", "PRODUCT_NOT_FOR_SALE")
                case .expiredByTest: return make("EXPIRED")
                case .refunded: return nil  // the REFUND says it
                }
            case .refunded:
                return make("REFUND", status: change.subscription == nil ? nil : 5)
            case .refundReversed:
                return make("REFUND_REVERSED")
            case .refundRequested(let reason):
                var notification = make("CONSUMPTION_REQUEST", status: nil)
                notification.consumptionRequestReason = reason.rawValue
                return notification
            case .refundDeclined:
                return make("REFUND_DECLINED", status: nil)
            case .autoRenewChanged(let enabled):
                return make("DID_CHANGE_RENEWAL_STATUS", enabled ? "AUTO_RENEW_ENABLED" : "AUTO_RENEW_DISABLED")
            case .priceIncreaseRequested:
                return make("PRICE_INCREASE", "PENDING")
            case .priceIncreaseConsented:
                return make("PRICE_INCREASE", "ACCEPTED")
            case .priceIncreaseDeclined:
                return make("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED")
            case .renewalDateExtended:
                return make("RENEWAL_EXTENDED")
            case .familyRevoked:
                return make("REVOKE")
            }
        }

        /// Signs and posts a notification: with the values of the change it tells of, at the change's date; without a
        /// change, with the transaction as it stands now.
        private func send(_ notification: PendingNotification, change: StoreChange?) {
            guard notifications.url != nil else { return }
            var data = NotificationPayload.DataObject(
                bundleId: store.app.bundleIdentifier, bundleVersion: store.app.applicationVersion,
                environment: environment.rawValue, status: notification.status,
                consumptionRequestReason: notification.consumptionRequestReason)
            let signedDate: Date
            if let change {
                signedDate = change.date
                data.signedTransactionInfo = try? store.signedTransactionValue(of: change).jwsRepresentation
                data.signedRenewalInfo = try? store.signedRenewalInfoValue(of: change)?.jwsRepresentation
            } else {
                signedDate = store.now
                if let id = notification.transactionID {
                    data.signedTransactionInfo = try? signed.transaction(id)
                    if let record = store.transaction(id), record.productType == .autoRenewableSubscription {
                        data.signedRenewalInfo = try? signed.renewalInfo(originalID: record.originalID)
                    }
                }
            }
            let payload = NotificationPayload(
                notificationType: notification.type, subtype: notification.subtype,
                notificationUUID: UUID().uuidString.lowercased(), data: data, summary: nil,
                signedDate: JWSDate(signedDate).millisecondsSince1970)
            _ = try? notifications.post(payload, originalTransactionID: notification.originalID)
        }

        // MARK: Consumption information and extensions

        /// Keeps what a backend sent with Send Consumption Information, in the store.
        func recordConsumption(_ information: ConsumptionInformation, forTransaction id: UInt64) throws(APIError) {
            do {
                try perform(.setConsumptionInformation(information, transactionID: id))
            } catch {
                switch error.code {
                case .unknownTransaction: throw .transactionIdNotFound
                case .invalidProductType where information.version1 != nil: throw .invalidTransactionTypeNotSupported
                case .invalidProductType: throw .consumptionPercentageAutoRenewableSubscription
                case .invalidAction:
                    throw APIError(
                        APIError.generalBadRequest.errorCode,
                        "Invalid request. The consumption percentage must be from 0 to 100000.")
                default: throw .generalInternal
                }
            }
        }

        /// Sets the app account token of a purchase in the store (Set App Account Token).
        func setAppAccountToken(_ token: UUID, originalID: UInt64) throws(APIError) {
            do {
                try perform(.setAppAccountToken(token, originalTransactionID: originalID))
            } catch {
                switch error.code {
                case .unknownTransaction: throw .originalTransactionIdNotFound
                case .invalidAction: throw .transactionIdIsNotOriginalTransactionId
                default: throw .generalInternal
                }
            }
        }

        /// Finishes a transaction on every device that holds it (Finish Transaction).
        func finishTransaction(_ id: UInt64) throws(APIError) {
            do {
                try perform(.finishTransaction(id))
            } catch {
                throw error.code == .unknownTransaction ? .transactionIdNotFound : .generalInternal
            }
        }

        /// Extends one subscription and sends RENEWAL_EXTENDED.
        func extend(originalID: UInt64, days: Int) throws(APIError) -> SubscriptionState {
            let outcome: StoreOperation.Outcome
            do {
                outcome = try perform(.extendRenewalDate(originalID: originalID, by: TimeInterval(days) * 86_400))
            } catch {
                switch error.code {
                case .unknownTransaction: throw .originalTransactionIdNotFound
                case .noSubscription, .invalidAction: throw .subscriptionExtensionIneligible
                default: throw .generalInternal
                }
            }
            guard case .subscription(let extended) = outcome else { throw .generalInternal }
            return extended
        }

        /// Extends every active subscription to a product (in the given storefronts) through the store, which sends
        /// RENEWAL_EXTENDED for each, then sends RENEWAL_EXTENSION/FAILURE for each subscription it could not extend
        /// and RENEWAL_EXTENSION/SUMMARY. Reusing a request identifier does nothing more, as Apple answers.
        func massExtend(productID: String, days: Int, requestIdentifier: String, storefronts: [String]?)
            throws(APIError)
        {
            let performed: StoreOperation.Outcome
            do {
                performed = try perform(
                    .extendRenewalDates(
                        productID: productID, by: TimeInterval(days) * 86_400, requestIdentifier: requestIdentifier,
                        storefrontCountryCodes: storefronts))
            } catch {
                switch error.code {
                case .unknownProduct, .invalidProductType: throw .invalidProductId
                case .invalidAction: throw .invalidRequestIdentifier
                default: throw .generalInternal
                }
            }
            guard case .massRenewalExtension(let outcome) = performed else { throw .generalInternal }
            guard outcome.isNew, notifications.url != nil else { return }
            for failure in outcome.failures {
                send(
                    PendingNotification(
                        type: "RENEWAL_EXTENSION", subtype: "FAILURE", transactionID: failure.transactionID,
                        originalID: failure.originalID, status: failure.status.rawValue),
                    change: nil)
            }
            let request = outcome.request
            let payload = NotificationPayload(
                notificationType: "RENEWAL_EXTENSION", subtype: "SUMMARY",
                notificationUUID: UUID().uuidString.lowercased(),
                data: nil,
                summary: NotificationPayload.Summary(
                    environment: environment.rawValue, bundleId: store.app.bundleIdentifier, productId: productID,
                    requestIdentifier: requestIdentifier,
                    storefrontCountryCodes: storefronts ?? [store.settings.storefront.countryCode],
                    succeededCount: Int64(request.succeededCount), failedCount: Int64(request.failedCount)),
                signedDate: JWSDate(request.completeDate).millisecondsSince1970)
            _ = try notifications.post(payload, originalTransactionID: nil)
        }
    }
#endif
