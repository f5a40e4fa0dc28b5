public import Dispatch
public import StoreSimulator

extension SKPaymentQueue {
    /// Creates a queue on a durable store kept in the state file at `statePath` (created if it does not exist): the
    /// store of `SimulatedStore(statePath:durability:lane:)`, reachable as ``store`` (close it with
    /// `store.close()`).
    ///
    /// A queue opened this way after a process restart, for the same device, gets the device's unfinished
    /// transactions back: they are reported to the first observer added, and `.purchasing` ones go on.
    /// - Parameters:
    ///   - statePath: The state file (docs/durable-state.md).
    ///   - durability: When the store commits its changes.
    ///   - deviceID: The device the queue runs on.
    ///   - account: The App Store account the device is signed in to.
    ///   - lane: How the store runs its work: `.manual` for tests, the main queue by default.
    /// - Throws: `StoreSimulatorError` if the state file cannot be opened, is damaged, or comes from a newer release.
    public convenience init(
        statePath: String,
        durability: StoreDurability = StoreDurability(),
        deviceID: String = SKPaymentQueue.defaultDeviceID,
        account: String = SimulatedStore.defaultAccount,
        lane: StoreLane.Mode = .dispatch(.main)
    ) throws(StoreSimulatorError) {
        let store = try SimulatedStore(statePath: statePath, durability: durability, lane: lane)
        self.init(store: store, deviceID: deviceID, account: account)
    }
}
