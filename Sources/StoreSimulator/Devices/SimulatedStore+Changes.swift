import Foundation
import StoreModels
import Synchronization

extension SimulatedStore {
    /// Calls `handler` on the lane with every change the store applies from now on (``StoreChange``): purchases made on
    /// devices, outside the app or approved through Ask to Buy, renewals, billing issues and recoveries, expiries,
    /// refunds, changes of renewal settings, price increases and extensions of the renewal date, whatever made them (a
    /// device, a test, a move of the clock), once each and in the order the store applied them.
    ///
    /// The handler runs on the store's lane, outside the store's locks, after the change is applied (and, in a durable
    /// store, recorded in the journal): it may read and change the store. On a `.manual` lane a move of the clock runs
    /// the lane at each instant that has changes, so the clock shows the change's own time when the handler hears it
    /// (see ``advance(to:)``); each change carries its date and the transaction and subscription as they stood then, in
    /// any case. Opening a durable store replays its journal before anyone can observe it: replayed changes are not
    /// told. Handlers added together hear each change in the order they were added. Returns a token for
    /// ``removeChangeObserver(_:)``.
    ///
    /// A store nobody observes keeps and builds nothing for it.
    @discardableResult
    public func addChangeObserver(_ handler: @escaping @Sendable (StoreChange) -> Void) -> ChangeObserverToken {
        let token = changeObservers.withLock { observers in
            defer { observers.next += 1 }
            observers.handlers[observers.next] = handler
            return ChangeObserverToken(value: observers.next)
        }
        state.withLock { $0.changes.isObserved = true }
        observingChanges.store(true, ordering: .releasing)
        return token
    }

    /// Stops calling the handler a token names; changes already applied and not yet told no longer reach it either.
    public func removeChangeObserver(_ token: ChangeObserverToken) {
        let remaining = changeObservers.withLock { observers in
            observers.handlers.removeValue(forKey: token.value)
            return observers.handlers.count
        }
        guard remaining == 0 else { return }
        state.withLock { state in
            guard changeObservers.withLock({ $0.handlers.isEmpty }) else { return }
            state.changes = PendingChanges()
            observingChanges.store(false, ordering: .releasing)
        }
    }

    /// Sends the devices of family members, on the lane, what they are to hear of transactions shared with them or
    /// revoked (``StoreState/familyOutbox``).
    private func tellFamilies() {
        let outbox = state.withLock { state in
            defer { state.familyOutbox = [] }
            return state.familyOutbox
        }
        for (deviceID, event) in outbox { send(event, to: deviceID) }
    }

    /// Whether any handler was added with ``addChangeObserver(_:)``.
    var hasChangeObservers: Bool { observingChanges.load(ordering: .acquiring) }

    /// Tells the change observers, on the lane, of the changes applied so far. Costs one atomic read when nobody
    /// observes. Call after a change, outside the state lock.
    func tellChanges() {
        if familiesInUse.load(ordering: .acquiring) { tellFamilies() }
        guard hasChangeObservers else { return }
        lane.enqueue { [self] in
            let changes = state.withLock { state -> [StoreChange] in
                defer { state.changes.changes = [] }
                return state.changes.changes
            }
            guard !changes.isEmpty else { return }
            journal?.flushBeforeCallback()
            let handlers = changeObservers.withLock { $0.handlers.sorted { $0.key < $1.key }.map(\.value) }
            for change in changes {
                for handler in handlers { handler(change) }
            }
        }
    }
}
