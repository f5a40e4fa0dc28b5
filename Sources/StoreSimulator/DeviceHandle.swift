/// A connected device's place in its store, from ``SimulatedStore/connectDevice(_:account:)``: payment steps given a
/// handle reach the device directly instead of looking it up by identifier.
package struct DeviceHandle: Sendable {
    let device: StoreState.Device

    /// The device's identifier.
    package var deviceID: String { device.id }
}
