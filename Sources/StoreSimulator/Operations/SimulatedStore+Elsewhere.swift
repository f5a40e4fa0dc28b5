import Foundation
public import StoreModels
import Synchronization

extension SimulatedStore {
    /// Buys a product outside the app (on another device, or in the App Store), as
    /// `SKTestSession.buyProduct(productIdentifier:)` does. The purchase is charged at once, whatever the settings
    /// say (they govern purchases made in the app), and every device signed in to the account gets it as a new
    /// `.purchased` transaction, without a `.purchasing` one before.
    ///
    /// As in the app, an owned non-consumable or the subscription already running is granted again without a second
    /// charge; a higher level of a subscription group, or the same level with a period of the same duration, replaces
    /// the running period at once, a lower level or another duration takes effect at the next renewal.
    ///
    /// `options` are StoreKit Test's purchase options (`SKTestSession.buyProduct(identifier:options:)`): a purchase
    /// dated in the past, whose subscription renews (or expires) at each instant since as moving the clock would have,
    /// each renewal told to the devices; a promotional offer applied without a signature; an offer code's offer
    /// (docs/decisions.md 107); a billing plan the product offers (docs/decisions.md 111).
    ///
    /// - Returns: the record that grants the purchase.
    /// - Throws: `unknownProduct`, or `invalidAction` for a quantity outside 1...10; for `options`, as
    ///   ``TestPurchaseOptions`` says: `invalidAction` for a date in the future or within the account's subscription,
    ///   an offer the product lacks or the customer may not redeem, a billing plan the product does not offer (or a
    ///   monthly one with an offer), `invalidProductType` for an offer or a billing plan of a product that has none,
    ///   `dateOutOfRange`, `tooManyRenewals`.
    @discardableResult
    public func buyProduct(
        _ productID: String,
        quantity: Int = 1,
        account: String = SimulatedStore.defaultAccount,
        applicationUsername: String? = nil,
        options: TestPurchaseOptions = TestPurchaseOptions()
    ) throws(StoreSimulatorError) -> TransactionRecord {
        // A purchase without options keeps the journal entry it always had.
        journal?.begin(
            .operation(
                options == TestPurchaseOptions()
                    ? .buyProduct(
                        productID: productID, quantity: quantity, account: account,
                        applicationUsername: applicationUsername)
                    : .buyProductForTesting(
                        productID: productID, quantity: quantity, account: account,
                        applicationUsername: applicationUsername, options: options)))
        defer { journal?.end() }
        guard PaymentRequest.quantityRange.contains(quantity) else {
            throw StoreSimulatorError(.invalidAction, "quantity \(quantity) is outside 1...10")
        }
        let now = clock.now
        let (record, outcome) = try state.withLock {
            state throws(StoreSimulatorError) -> (TransactionRecord, SubscriptionOutcome) in
            guard let product = state.configuration.catalog.product(productID) else {
                throw StoreSimulatorError(
                    .unknownProduct, "no product has identifier \(productID) in the store's catalog")
            }
            let offer = try state.testOffer(options, for: product, account: account)
            let plan = try StoreState.testBillingPlan(options, for: product, offer: offer)
            let date = options.purchaseDate ?? now
            try state.checkPurchaseDate(
                date, of: product, offer: offer, account: account, renews: options.renewsUntilNow, now: now)
            let id = state.allocateTransactionID()
            let request = PaymentRequest(
                productID: productID,
                quantity: quantity,
                applicationUsername: applicationUsername,
                billingPlan: plan
            )
            let granted = state.grant(
                recordID: id,
                request: request,
                product: product,
                account: account,
                deviceID: nil,
                offer: offer,
                now: date
            )
            guard let record = state.records[granted] else {
                throw StoreSimulatorError(.invalidAction, "the purchase of \(productID) left no record")
            }
            // Only a subscription this purchase started is cancelled, not one it was granted again.
            if !options.renewsUntilNow, granted == id, let groupID = product.subscription?.groupID {
                state.cancelAtOnce(recordID: granted, groupID: groupID, account: account, at: date)
            }
            var outcome = SubscriptionOutcome()
            state.deliver(
                record, transactionID: id, transactionDate: date, to: state.deviceIDs(of: account), into: &outcome)
            if date < now, let groupID = product.subscription?.groupID {
                state.catchUp(groupID: groupID, account: account, until: now, into: &outcome)
            }
            return (state.records[granted] ?? record, outcome)
        }
        dispatch(outcome)
        return record
    }

    /// Resolves the issue of a transaction, as `SKTestSession.resolveIssueForTransaction(identifier:)` does.
    ///
    /// - An interrupted purchase (failed, with a purchase issue): the customer fixed it, so a new purchase of the same
    ///   product and quantity is charged now and reported `.purchased` to the device that failed (to every device of
    ///   the account if that one is unknown).
    /// - A subscription in grace period or billing retry (any transaction of it): billing succeeds now, as a recovery
    ///   by the clock would (a new purchased transaction for every device of the account).
    ///
    /// - Returns: the new purchased record.
    /// - Throws: `unknownTransaction`, or `invalidAction` if the transaction has no issue to resolve.
    @discardableResult
    public func resolveIssue(_ id: UInt64) throws(StoreSimulatorError) -> TransactionRecord {
        journal?.begin(.operation(.resolveIssue(id)))
        defer { journal?.end() }
        let now = clock.now
        let (record, outcome) = try state.withLock {
            state throws(StoreSimulatorError) -> (TransactionRecord, SubscriptionOutcome) in
            guard let failed = state.records[id] else { throw Self.unknownTransaction(id) }
            var outcome = SubscriptionOutcome()
            if failed.productType == .autoRenewableSubscription, failed.state == .purchased,
                let key = try? state.subscriptionKey(forTransaction: id), var subscription = state.subscriptions[key],
                subscription.phase == .gracePeriod || subscription.phase == .billingRetry
            {
                state.recover(
                    &subscription, at: now, deviceIDs: state.deviceIDs(of: subscription.account), into: &outcome)
                state.subscriptions[key] = subscription
                guard let renewed = state.records[subscription.latestRecordID], renewed.id != failed.id else {
                    throw StoreSimulatorError(.invalidAction, "the subscription of transaction \(id) could not renew")
                }
                return (renewed, outcome)
            }
            guard failed.state == .failed, failed.hasPurchaseIssue else {
                throw StoreSimulatorError(
                    .invalidAction,
                    "transaction \(id) has no purchase issue to resolve (it is \(failed.state.name))"
                )
            }
            guard let product = state.configuration.catalog.product(failed.productID) else {
                throw StoreSimulatorError(.unknownProduct, "product \(failed.productID) left the catalog")
            }
            state.records[id]?.hasPurchaseIssue = false
            let newID = state.allocateTransactionID()
            let granted = state.grant(
                recordID: newID,
                request: PaymentRequest(
                    productID: failed.productID,
                    quantity: failed.quantity,
                    applicationUsername: failed.applicationUsername
                ),
                product: product,
                account: failed.account,
                deviceID: failed.deviceID,
                offer: nil,
                now: now
            )
            guard let record = state.records[granted] else {
                throw StoreSimulatorError(.invalidAction, "the purchase of \(failed.productID) left no record")
            }
            let targets: [String]
            if let deviceID = failed.deviceID, state.devices[deviceID] != nil {
                targets = [deviceID]
            } else {
                targets = state.deviceIDs(of: failed.account)
            }
            // The payment is for the product bought, even when the running subscription's record grants it (a
            // crossgrade or downgrade that takes effect at the next renewal), as a direct purchase reports it.
            state.deliver(
                record, transactionID: newID, productID: failed.productID, transactionDate: now, to: targets,
                into: &outcome)
            return (record, outcome)
        }
        dispatch(outcome)
        return record
    }
}
