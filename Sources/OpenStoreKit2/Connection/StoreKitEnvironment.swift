public import StoreSimulator

/// Which store StoreKit 2's static API talks to: `SimulatedStore.default` (as the device of
/// `SKPaymentQueue.default()`), unless a task tree is bound to a store of its own.
///
/// ```swift
/// let store = SimulatedStore(lane: .dispatch(DispatchQueue(label: "test")))
/// try await StoreKitEnvironment.withStore(store) {
///     let products = try await Product.products(for: ["com.example.pro"])
///     let result = try await products[0].purchase()
/// }
/// ```
///
/// The binding is a task-local value: the body and every child task it starts (`async let`, task groups,
/// `Task { }`) see the bound store, and two tests bound to their own stores never see each other. A detached task
/// (`Task.detached`) starts without task-local values, so it talks to the default store. Values from a store
/// (``Product``, ``Transaction``) remember it: `purchase()` and `finish()` go to the store they came from.
public enum StoreKitEnvironment {
    @TaskLocal static var binding: StoreKitClient?

    /// The client of ``StoreSimulator/SimulatedStore/default``'s default device.
    static let defaultClient = StoreKitClient.client(
        for: .default, deviceID: SimulatedStore.defaultDeviceID, account: SimulatedStore.defaultAccount)

    /// The client the static API uses here.
    static var current: StoreKitClient { binding ?? defaultClient }

    /// The store the static API talks to here.
    public static var store: SimulatedStore { binding?.store ?? .default }

    /// The device the static API acts as here.
    public static var deviceID: String { binding?.deviceID ?? SimulatedStore.defaultDeviceID }

    /// Runs `operation` with the static API bound to a store, as one device signed in to one account.
    ///
    /// - Parameters:
    ///   - store: The store.
    ///   - deviceID: The device; the one of `SKPaymentQueue.default()` by default, so that a queue made with
    ///     `SKPaymentQueue(store: store)` is the same device.
    ///   - account: The App Store account the device is signed in to.
    ///   - isolation: The actor `operation` runs on: the caller's, by default.
    ///   - operation: The work.
    /// - Returns: What `operation` returns.
    public static func withStore<Result>(
        _ store: SimulatedStore,
        deviceID: String = SimulatedStore.defaultDeviceID,
        account: String = SimulatedStore.defaultAccount,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        let client = StoreKitClient.client(for: store, deviceID: deviceID, account: account)
        return try await $binding.withValue(client, operation: operation, isolation: isolation)
    }

    /// Runs synchronous `operation` with the static API bound to a store (see
    /// ``withStore(_:deviceID:account:isolation:operation:)``).
    ///
    /// - Parameters:
    ///   - store: The store.
    ///   - deviceID: The device.
    ///   - account: The App Store account.
    ///   - operation: The work.
    /// - Returns: What `operation` returns.
    public static func withStore<Result>(
        _ store: SimulatedStore,
        deviceID: String = SimulatedStore.defaultDeviceID,
        account: String = SimulatedStore.defaultAccount,
        operation: () throws -> Result
    ) rethrows -> Result {
        let client = StoreKitClient.client(for: store, deviceID: deviceID, account: account)
        return try $binding.withValue(client, operation: operation)
    }
}
