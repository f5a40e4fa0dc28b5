import StoreModels

extension SimulatedStore {
    /// Tells a device's listeners that the store decided a payment (``DeviceListener/connection(_:didDecide:record:)``):
    /// the transaction in its decided state, and the record a purchase reports. Held in the lane's ``DeviceOutbox`` in
    /// group commit, as ``emit(_:to:)`` holds events.
    func emitDecision(_ transaction: DeviceTransaction, record: TransactionRecord?, to audience: DeviceAudience) {
        guard !audience.isEmpty else { return }
        if let outbox = lane.outbox { return outbox.hold(.decision(transaction, record, audience)) }
        journal?.flushBeforeCallback()
        audience.callEach { connection, listener in
            listener.connection(connection, didDecide: transaction, record: record)
        }
    }
}
