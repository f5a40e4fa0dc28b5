import StoreModels
import Synchronization

/// What a durable store in group-commit mode has to tell its devices during a run of its lane, held until the run is
/// over: the lane then commits the run's changes once and delivers everything held, in the order the store produced
/// it, so that no listener hears of a change a crash could still take back and a run of many payments costs one
/// commit instead of one per event (docs/engine.md, "Durable stores").
///
/// Only the lane delivers: at the end of a run (a manual lane's ``StoreLane/runUntilIdle()`` with nothing left to
/// run, a dispatch lane's last item), before lane work that is a closure (which may call a front end directly, so it
/// must come after what the front end was to hear first), and before the store asks a listener a question.
final class DeviceOutbox: Sendable {
    /// One delivery: what each listener of an audience is to hear.
    enum Delivery: Sendable {
        case event(DeviceEvent, DeviceAudience)
        case update(DeviceTransaction, DeviceAudience)
        case removal(UInt64, DeviceAudience)
        case decision(DeviceTransaction, TransactionRecord?, DeviceAudience)
    }

    private let held = Mutex<[Delivery]>([])
    /// Commits what the store changed so far (the journal's ``StoreJournal/flushBeforeCallback()``).
    private let commit: @Sendable () -> Void

    init(commit: @escaping @Sendable () -> Void) {
        self.commit = commit
    }

    /// Keeps a delivery until the lane delivers what is held.
    func hold(_ delivery: consuming Delivery) {
        var moving: Delivery? = consume delivery
        held.withLock { $0.append(moving.take()!) }
    }

    /// Commits, then delivers everything held, in order. Returns whether anything was held. Call on the lane.
    @discardableResult
    func deliver() -> Bool {
        let deliveries = held.withLock { held -> [Delivery] in
            guard !held.isEmpty else { return [] }
            defer { held = [] }
            return held
        }
        guard !deliveries.isEmpty else { return false }
        commit()
        for delivery in deliveries {
            switch delivery {
            case .event(let event, let audience):
                audience.callEach { connection, listener in listener.connection(connection, didProduce: event) }
            case .update(let transaction, let audience):
                audience.callEach { connection, listener in listener.connection(connection, didUpdate: transaction) }
            case .removal(let id, let audience):
                audience.callEach { connection, listener in listener.connection(connection, didRemove: id) }
            case .decision(let transaction, let record, let audience):
                audience.callEach { connection, listener in
                    listener.connection(connection, didDecide: transaction, record: record)
                }
            }
        }
        return true
    }
}
