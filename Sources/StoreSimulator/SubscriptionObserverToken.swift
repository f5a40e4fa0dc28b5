/// Names a handler added with ``SimulatedStore/addSubscriptionObserver(_:)``, to remove it.
public struct SubscriptionObserverToken: Sendable, Hashable {
    let value: UInt64
}
