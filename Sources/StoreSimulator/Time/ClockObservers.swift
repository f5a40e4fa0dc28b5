import Synchronization

/// The clock observers of a store, held weakly.
final class ClockObservers: Sendable {
    private struct Entry {
        weak var observer: (any StoreClockObserver)?
    }

    private let entries = Mutex<[Entry]>([])

    /// Adds an observer once; forgets observers that are gone.
    func add(_ observer: any StoreClockObserver) {
        entries.withLock { entries in
            entries.removeAll { $0.observer == nil || $0.observer === observer }
            entries.append(Entry(observer: observer))
        }
    }

    /// Removes an observer.
    func remove(_ observer: any StoreClockObserver) {
        entries.withLock { entries in entries.removeAll { $0.observer == nil || $0.observer === observer } }
    }

    /// The observers still alive, in the order they were added.
    var current: [any StoreClockObserver] { entries.withLock { $0.compactMap(\.observer) } }
}
