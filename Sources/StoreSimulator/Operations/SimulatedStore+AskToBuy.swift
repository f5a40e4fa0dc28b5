import Foundation
import StoreModels
import Synchronization

extension SimulatedStore {
    /// Approves a pending Ask to Buy request: the purchase is charged now and its `.deferred` transaction becomes
    /// `.purchased` on the device that asked.
    ///
    /// - Throws: `unknownTransaction`, or `invalidAction` if the transaction does not wait for approval.
    public func approveAskToBuy(_ id: UInt64) throws(StoreSimulatorError) {
        journal?.begin(.operation(.approveAskToBuy(id)))
        defer { journal?.end() }
        let now = clock.now
        var elsewhere: (deviceIDs: [String], transaction: DeviceTransaction)?
        let (deviceID, update) = try state.withLock {
            state throws(StoreSimulatorError) -> (String?, DeviceTransaction?) in
            let record = try state.pendingAskToBuy(id)
            guard let product = state.configuration.catalog.product(record.productID) else {
                throw StoreSimulatorError(.unknownProduct, "product \(record.productID) left the catalog")
            }
            state.records[id] = nil
            let grantedID = state.grant(
                recordID: id,
                request: PaymentRequest(
                    productID: record.productID,
                    quantity: record.quantity,
                    applicationUsername: record.applicationUsername
                ),
                product: product,
                account: record.account,
                deviceID: record.deviceID,
                offer: nil,
                now: now
            )
            guard let deviceID = record.deviceID, let device = state.devices[deviceID], let index = device.index(of: id)
            else {
                return (nil, nil)
            }
            device.queue[index].transaction.state = .purchased
            device.queue[index].transaction.transactionDate = now
            device.queue[index].transaction.recordID = grantedID
            elsewhere = state.tellOtherDevices(
                of: device.queue[index].transaction, boughtOn: device, account: record.account)
            return (deviceID, device.queue[index].transaction)
        }
        if let deviceID, let update { send(.updated([update]), to: deviceID) }
        if let elsewhere { tell(elsewhere) }
        tellChanges()
    }

    /// Declines a pending Ask to Buy request.
    ///
    /// As StoreKit does, the app hears nothing: the `.deferred` transaction silently leaves the device's queue (see
    /// docs/decisions.md). The history keeps it as failed with `.paymentCancelled`.
    ///
    /// - Throws: `unknownTransaction`, or `invalidAction` if the transaction does not wait for approval.
    public func declineAskToBuy(_ id: UInt64) throws(StoreSimulatorError) {
        journal?.begin(.operation(.declineAskToBuy(id)))
        defer { journal?.end() }
        let deviceID = try state.withLock { state throws(StoreSimulatorError) -> String? in
            var record = try state.pendingAskToBuy(id)
            record.pendingAskToBuyConfirmation = false
            record.state = .failed
            record.failure = StoreFailure(.paymentCancelled, "the Ask to Buy request was declined")
            state.records[id] = record
            guard let deviceID = record.deviceID, let device = state.devices[deviceID], device.index(of: id) != nil
            else {
                return nil
            }
            device.removeAll { $0.id == id }
            return deviceID
        }
        if let deviceID { send(.dropped([id]), to: deviceID) }
    }
}
