import StoreModels

@testable import StoreSimulator

/// A listener that hears nothing and says yes: a device needs one attached for the store to report to it.
final class SilentListener: DeviceListener {
    func connection(_ connection: DeviceConnection, didProduce event: DeviceEvent) {}
}

extension SimulatedStore {
    /// Connects a device under a test front end with a listener that hears nothing; the listener lives as long as the
    /// connection is used, since the test keeps both.
    func silentConnection(_ deviceID: String, account: String = SimulatedStore.defaultAccount) -> (
        DeviceConnection, SilentListener
    ) {
        let listener = SilentListener()
        return (connect(deviceID: deviceID, account: account, frontEnd: "tests", listener: listener), listener)
    }
}

extension DeviceConnection {
    /// Adds a payment without scheduling anything: the store's first step alone, for tests that take the steps one at
    /// a time (journal and replay tests, which count the changes each step records).
    func submitNow(_ request: PaymentRequest) -> DeviceTransaction {
        let id = store.submit(request, to: device)
        return unfinishedTransaction(id)!
    }

    /// Decides a `.purchasing` transaction now, as the lane does after its `.purchasing` report.
    func processNow(_ id: UInt64) {
        store.processPayment(id, on: device)
    }

    /// Finishes a transaction now, as the lane does; `false` if the device does not hold it.
    @discardableResult
    func finishNow(_ id: UInt64) -> Bool {
        store.finish(id, on: device)
    }

    /// Restores now, as the lane does.
    func restoreNow(applicationUsername: String?) {
        store.restore(deviceID: deviceID, applicationUsername: applicationUsername)
    }
}
