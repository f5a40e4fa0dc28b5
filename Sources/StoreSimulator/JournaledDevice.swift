import StoreModels

/// A device as a durable store in group-commit mode keeps it: the journal commits pending changes before the device
/// hears anything, so that no app is told of a change a crash could still take back.
///
/// The store holds its devices weakly; the journal holds these wrappers, and a wrapper holds its device weakly, so a
/// closed queue is still released.
final class JournaledDevice: StoreDevice, @unchecked Sendable {
    // @unchecked: both references are set once, at creation, and only read afterwards.
    let deviceID: String
    private weak var device: (any StoreDevice)?
    private weak var journal: StoreJournal?

    init(device: any StoreDevice, journal: StoreJournal) {
        self.deviceID = device.deviceID
        self.device = device
        self.journal = journal
    }

    func store(_ store: SimulatedStore, didProduce event: DeviceEvent) {
        guard let device else { return }
        journal?.flushBeforeCallback()
        device.store(store, didProduce: event)
    }

    func store(_ store: SimulatedStore, shouldContinue transaction: DeviceTransaction, in storefront: Storefront)
        -> Bool
    {
        guard let device else { return true }
        journal?.flushBeforeCallback()
        return device.store(store, shouldContinue: transaction, in: storefront)
    }
}
