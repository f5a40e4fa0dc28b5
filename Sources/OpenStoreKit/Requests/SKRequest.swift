public import Foundation
public import StoreSimulator
import Synchronization

/// A request to the store; use a subclass such as ``SKProductsRequest``.
///
/// The request keeps itself alive while it runs, and answers its delegate on the store's lane.
open class SKRequest: NSObject, @unchecked Sendable {
    // @unchecked: mutable state lives behind a mutex; the delegate is called only on the store's lane.

    private struct State: @unchecked Sendable {
        weak var delegate: (any SKRequestDelegate)?
        var started = false
        var cancelled = false
    }

    /// The store the request asks.
    public let store: SimulatedStore
    private let state = Mutex(State())

    /// Creates a request to a store.
    public init(store: SimulatedStore) {
        self.store = store
    }

    /// Creates a request to `SimulatedStore.default`.
    public override convenience init() {
        self.init(store: .default)
    }

    /// Hears when the request finishes or fails; held weakly.
    public weak var delegate: (any SKRequestDelegate)? {
        get { state.withLock { $0.delegate } }
        set { state.withLock { $0.delegate = newValue } }
    }

    /// Starts the request, unless it has started already.
    open func start() {
        let first = state.withLock { state -> Bool in
            guard !state.started else { return false }
            state.started = true
            return true
        }
        guard first else { return }
        store.lane.enqueue { [self] in
            guard !state.withLock({ $0.cancelled }) else { return }
            perform()
        }
    }

    /// Cancels the request; its delegate hears nothing more.
    open func cancel() {
        state.withLock { $0.cancelled = true }
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Does the request's work on the store's lane and answers the delegate. Subclasses override it.
    open func perform() {
        delegate?.requestDidFinish(self)
    }
}
