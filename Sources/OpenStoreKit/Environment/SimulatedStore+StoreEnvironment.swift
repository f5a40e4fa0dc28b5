public import Foundation
public import ReceiptKit
public import StoreSimulator

extension SimulatedStore: StoreEnvironment {
    /// The bundle identifier of the store's app (``StoreSimulator/SimulatedStore/app``).
    public var appBundleIdentifier: String { app.bundleIdentifier }

    /// The identifier of a device as the store's receipts hash it
    /// (``StoreSimulator/SimulatedStore/deviceIdentifier(for:)``).
    public func receiptDeviceIdentifier(for deviceID: String) -> DeviceIdentifier {
        Self.deviceIdentifier(for: deviceID)
    }

    /// Calls `onMove` after each move of the store's clock, on the store's lane, for as long as the observation is
    /// kept (see ``StoreSimulator/StoreClockObserver``).
    public func observeClock(_ onMove: @escaping @Sendable (Date) -> Void) -> StoreClockObservation {
        let observation = StoreClockObservation(onMove)
        addClockObserver(observation)
        return observation
    }
}

extension StoreClockObservation: StoreClockObserver {
    /// The simulated store's clock moved.
    public func store(_ store: SimulatedStore, clockDidMoveTo date: Date) {
        clockDidMove(to: date)
    }
}
