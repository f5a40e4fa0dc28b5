package import StoreSimulator
import Synchronization

/// Finds the StoreKit 2 state of a store: its controls and the live client of each device. Stores are held weakly,
/// clients too (a binding, a listener or a value holds a client), so nothing here keeps a store or its state file
/// open.
final class StoreKitRegistry: Sendable {
    static let shared = StoreKitRegistry()

    private struct Entry {
        weak var store: SimulatedStore?
        let controls: StoreKitControls
        var clients: [String: WeakClient]
    }

    private struct WeakClient {
        weak var client: StoreKitClient?
    }

    private let entries = Mutex<[ObjectIdentifier: Entry]>([:])

    /// The controls of a store.
    func controls(for store: SimulatedStore) -> StoreKitControls {
        entries.withLock { entries in Self.entry(for: store, in: &entries).controls }
    }

    /// The live client of a device, or the one `make` makes with the store's controls.
    func client(
        for store: SimulatedStore, deviceID: String, make: (StoreKitControls) -> StoreKitClient
    ) -> StoreKitClient {
        entries.withLock { entries in
            let key = ObjectIdentifier(store)
            let entry = Self.entry(for: store, in: &entries)
            if let live = entry.clients[deviceID]?.client { return live }
            let client = make(entry.controls)
            entries[key]?.clients[deviceID] = WeakClient(client: client)
            return client
        }
    }

    private static func entry(for store: SimulatedStore, in entries: inout [ObjectIdentifier: Entry]) -> Entry {
        let key = ObjectIdentifier(store)
        if let entry = entries[key], entry.store === store { return entry }
        // A new store, or a new one at the address of a store that is gone: forget what is gone.
        entries = entries.filter { $0.value.store != nil }
        let entry = Entry(store: store, controls: StoreKitControls(store: store), clients: [:])
        entries[key] = entry
        return entry
    }
}

extension SimulatedStore {
    /// The store's StoreKit 2 controls (simulated failures).
    package var storeKitControls: StoreKitControls { StoreKitRegistry.shared.controls(for: self) }
}
