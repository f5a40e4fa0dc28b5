import Foundation
import ReceiptKit
import StoreModels
import Synchronization

extension SimulatedStore {
    /// Adds a payment to a device's unfinished transactions, `.purchasing`, and returns its identifier. Scheduling
    /// what follows is the caller's: ``DeviceConnection/submit(_:)`` puts ``reportAndProcess(_:on:)`` on the lane.
    func submit(_ request: PaymentRequest, to device: StoreState.Device) -> UInt64 {
        journal?.begin(.submit(request, deviceID: device.id))
        defer { journal?.end() }
        return state.withLock { state in
            let id = state.allocateTransactionID()
            device.append(
                DeviceTransaction(id: id, payment: request, state: .purchasing),
                startedIn: state.settings.storefront
            )
            return id
        }
    }

    /// Reports a payment just added as `.purchasing` to the device's listeners, then decides it. Runs on the lane.
    ///
    /// The `.purchasing` report answers the front end that added the payment: it is made only while that front end
    /// is still attached and alive (an app that stopped before its store answered hears nothing, and the one relaunched
    /// in its place hears the decided state only, as before), and then goes to every listener of the device.
    func reportAndProcess(_ transactionID: UInt64, from connection: DeviceConnection) {
        let device = connection.device
        var purchasing: DeviceTransaction?
        var generation: UInt64 = 0
        let audience = state.withLock { _ -> DeviceAudience in
            guard let index = device.index(of: transactionID), device.queue[index].transaction.state == .purchasing
            else { return .none }
            // The device's live listeners include the connection exactly when it is attached and its listener alive.
            let audience = device.audience()
            guard audience.contains(connection) else { return .none }
            purchasing = device.queue[index].transaction
            generation = device.attachmentGeneration
            return audience
        }
        guard let transaction = purchasing else {
            processPayment(transactionID, on: device)
            return
        }
        emitUpdate(transaction, to: audience)
        // The decided state goes to the same listeners unless one attached or left while they heard `.purchasing`.
        processPayment(transactionID, on: device, audience: audience, ofGeneration: generation)
    }

    /// Decides a `.purchasing` transaction (purchased, failed or deferred) and tells the device's listeners. Runs on
    /// the lane.
    ///
    /// If the storefront changed since the payment was added, the listeners are asked whether to go on (a replay gives
    /// the answer recorded instead); if one says no, the transaction fails with `.storeProductNotAvailable`.
    ///
    /// An audience the caller read from the device at an attachment generation is used again if the device's
    /// attachments have not changed since, which spares reading its listeners' weak references once more.
    func processPayment(
        _ transactionID: UInt64, on device: StoreState.Device, replayedAnswer: Bool? = nil,
        audience known: DeviceAudience = .none, ofGeneration generation: UInt64? = nil
    ) {
        journal?.enter()
        defer { journal?.end() }
        let now = clock.now
        // Results are written to these rather than returned, which would move the transaction through a result value.
        var decided: DeviceTransaction?
        var record: TransactionRecord?
        var audience = DeviceAudience.none
        var storefrontChange: Storefront?
        var elsewhere: (deviceIDs: [String], transaction: DeviceTransaction)?
        // The common case, an unchanged storefront, decides at once; a changed one asks the listeners outside the lock.
        state.withLock { state in
            guard let index = device.index(of: transactionID),
                device.queue[index].transaction.state == .purchasing
            else { return }
            let storefront = state.settings.storefront
            audience = generation == device.attachmentGeneration ? known : device.audience()
            let changed = device.queue[index].startedIn.map { $0 != storefront } ?? false
            if changed, replayedAnswer == false {
                state.failForStorefront(at: index, of: device, storefront)
            } else if changed, replayedAnswer == nil, !audience.isEmpty {
                storefrontChange = storefront
            } else {
                journal?.record(.processPayment(transactionID, deviceID: device.id, continues: true))
                state.decide(at: index, of: device, now: now, appBundleID: app.bundleIdentifier)
                elsewhere = state.tellOtherDevices(
                    of: device.queue[index].transaction, boughtOn: device, account: device.account)
            }
            decided = device.queue[index].transaction
            record = state.record(reportedBy: device.queue[index].transaction)
        }
        guard let transaction = decided else { return }
        guard let storefront = storefrontChange else {
            emitDecision(transaction, record: record, to: audience)
            if let elsewhere { tell(elsewhere) }
            tellChanges()
            return
        }
        commitBeforeAsking()
        var keepGoing = true
        audience.callEach { connection, listener in
            if keepGoing, !listener.connection(connection, shouldContinue: transaction, in: storefront) {
                keepGoing = false
            }
        }
        journal?.record(.processPayment(transactionID, deviceID: device.id, continues: keepGoing))
        let update = state.withLock { state -> (DeviceTransaction, TransactionRecord?, DeviceAudience)? in
            guard let index = device.index(of: transactionID) else { return nil }
            if keepGoing {
                state.decide(at: index, of: device, now: now, appBundleID: app.bundleIdentifier)
                elsewhere = state.tellOtherDevices(
                    of: device.queue[index].transaction, boughtOn: device, account: device.account)
            } else {
                state.failForStorefront(at: index, of: device, storefront)
            }
            let changed = device.queue[index].transaction
            return (changed, state.record(reportedBy: changed), device.audience())
        }
        guard let (changed, changedRecord, audienceNow) = update else { return }
        emitDecision(changed, record: changedRecord, to: audienceNow)
        if let elsewhere { tell(elsewhere) }
        tellChanges()
    }

    /// Sends the other devices of an account the purchase one of them made, on the lane, after the buying device
    /// heard it.
    func tell(_ elsewhere: (deviceIDs: [String], transaction: DeviceTransaction)) {
        for deviceID in elsewhere.deviceIDs { send(.purchasedOnOtherDevice([elsewhere.transaction]), to: deviceID) }
    }

    /// Removes a finished transaction from a device and tells the device's listeners. Runs on the lane.
    ///
    /// Returns `false` if the device has no such unfinished transaction (finishing twice is harmless).
    @discardableResult
    func finish(_ transactionID: UInt64, on device: StoreState.Device) -> Bool {
        journal?.begin(.finish(transactionID, deviceID: device.id))
        defer { journal?.end() }
        let audience = state.withLock { state -> DeviceAudience? in
            guard let index = device.index(of: transactionID) else {
                // A purchase made on another device leaves this one silently: StoreKit 1 never held it, and the
                // front end that finished it knows.
                if !device.otherDevicePurchases.isEmpty,
                    let position = device.otherDevicePurchases.firstIndex(where: { $0.id == transactionID })
                {
                    let recordID = device.otherDevicePurchases.remove(at: position).recordID
                    if state.retention == .receiptOnly, let recordID { state.dropFinishedRecord(recordID) }
                }
                return nil
            }
            let recordID = device.queue[index].transaction.recordID
            device.queue.discard(at: index)
            if state.retention == .receiptOnly, let recordID {
                state.dropFinishedRecord(recordID)
            }
            return device.audience()
        }
        guard let audience else { return false }
        emitRemoval(transactionID, to: audience)
        return true
    }

    /// Finishes a transaction on every device that holds it, as the App Store Server API's Finish Transaction does for
    /// a developer's server: each device's unfinished entries that report the transaction (not restored copies, which
    /// the app asked for) leave its queue, and its listeners hear `.removed`, on the lane, as when a front end finishes
    /// them; purchases of it made on another device leave silently. StoreKit 1's queue and StoreKit 2's
    /// `Transaction.unfinished` no longer list it. A transaction no device holds is left as it is.
    ///
    /// A durable store records the change in its journal; with ``HistoryRetention/receiptOnly`` a finished consumable's
    /// record is dropped, as a device's finish drops it.
    ///
    /// - Parameter id: A transaction of the history.
    /// - Throws: `unknownTransaction` when the history holds no such transaction.
    public func finishTransaction(_ id: UInt64) throws(StoreSimulatorError) {
        journal?.begin(.operation(.finishTransaction(id)))
        defer { journal?.end() }
        let removed = try state.withLock { state throws(StoreSimulatorError) in
            try state.finishEverywhere(id)
        }
        for (deviceID, ids) in removed { send(.removed(ids), to: deviceID) }
    }

    /// Restores a device's completed transactions: one new `.restored` transaction per non-consumable purchase and per
    /// auto-renewable subscription period, then the end of the restore. Call on the lane.
    ///
    /// Transactions still unfinished in the device's queue (purchased, not yet finished) are not restored: the device
    /// already holds them. A transaction unfinished on another device of the account is restored, since each device's
    /// queue is its own. The restore ends with one `restoreFinished` however many transactions it restored, none
    /// included.
    ///
    /// With an application username, only purchases made with that username or with none are restored.
    func restore(deviceID: String, applicationUsername: String?) {
        journal?.begin(.restore(deviceID: deviceID, applicationUsername: applicationUsername))
        defer { journal?.end() }
        let now = clock.now
        let outcome = state.withLock { state -> (Result<[DeviceTransaction], StoreFailure>, DeviceAudience) in
            let device = state.devices[deviceID] ?? StoreState.Device(id: deviceID, account: Self.defaultAccount)
            if let failure = state.settings.simulatedErrors[.restore] { return (.failure(failure), device.audience()) }
            if !state.paymentsAllowed(account: device.account) {
                return (
                    .failure(StoreFailure(.paymentNotAllowed, "this device may not make payments")), device.audience()
                )
            }
            // Only finished transactions are restored: a purchase (or renewal) still unfinished in this device's queue
            // stays there as it is, with no `.restored` copy beside it. Another device's queue is its own.
            var unfinished = Set<UInt64>()
            for entry in device.queue where entry.transaction.state == .purchased {
                if let recordID = entry.transaction.recordID { unfinished.insert(recordID) }
            }
            var restored: [DeviceTransaction] = []
            for record in state.records(of: device.account)
            where record.productType.isRestorable && record.state == .purchased && record.cancellationDate == nil
                && !unfinished.contains(record.id)
                && (applicationUsername == nil || record.applicationUsername == nil
                    || record.applicationUsername == applicationUsername)
            {
                var transaction = DeviceTransaction(
                    id: state.allocateTransactionID(),
                    payment: PaymentRequest(
                        productID: record.productID,
                        quantity: record.quantity,
                        applicationUsername: record.applicationUsername
                    ),
                    state: .restored
                )
                transaction.transactionDate = now
                transaction.originalID = record.id
                transaction.recordID = record.id
                restored.append(transaction)
            }
            for transaction in restored { device.append(transaction) }
            state.devices[deviceID] = device
            return (.success(restored), device.audience())
        }
        let audience = outcome.1
        switch outcome.0 {
        case .success(let restored):
            if !restored.isEmpty { emit(.updated(restored), to: audience) }
            emit(.restoreFinished, to: audience)
        case .failure(let failure):
            emit(.restoreFailed(failure), to: audience)
        }
    }
}
