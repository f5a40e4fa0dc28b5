/// Names a handler added with ``SimulatedStore/addChangeObserver(_:)``, to remove it.
public struct ChangeObserverToken: Sendable, Hashable {
    let value: UInt64
}
