import Synchronization

extension SimulatedStore {
    /// Which finished transactions the history keeps from now on.
    public var historyRetention: HistoryRetention {
        get { state.withLock { $0.retention } }
        set {
            journal?.begin(.operation(.setHistoryRetention(newValue)))
            defer { journal?.end() }
            state.withLock { $0.retention = newValue }
        }
    }
}
