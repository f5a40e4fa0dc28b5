/// The devices a store knows, by identifier, and the identifiers of each account's devices in identifier order, kept up
/// to date as devices are stored, so that a renewal finds the devices of its account without a look at every device.
///
/// Storing a device (`directory[id] = device`) files it under its account; a device whose account changed since it was
/// last stored moves to its new account's list when it is stored again. Devices are added, never removed.
///
/// The directory also lists the devices that hold transactions (an unfinished one, or a purchase made on another
/// device), kept up to date by the devices themselves as their lists change: what looks for the devices reporting a
/// transaction (a receipt's unfinished consumables, a shared record finished, a transaction deleted) visits those,
/// which a store whose apps finish what they hear keeps few, instead of every device it ever knew.
struct DeviceDirectory: Sendable, Sequence {
    /// The devices that hold transactions, in no particular order; each knows its position.
    final class Holders: @unchecked Sendable {
        // Used under the store's lock only, like the devices.
        private(set) var devices: [StoreState.Device] = []

        /// Adds a device that now holds transactions, or removes one that no longer does.
        func update(_ device: StoreState.Device) {
            if device.holdsTransactions {
                guard device.holderPosition < 0 else { return }
                device.holderPosition = devices.count
                devices.append(device)
            } else {
                let position = device.holderPosition
                guard position >= 0 else { return }
                let last = devices.removeLast()
                if last !== device {
                    devices[position] = last
                    last.holderPosition = position
                }
                device.holderPosition = -1
            }
        }
    }

    /// The devices changed (stored, signed in to another account, their lists of transactions changed) since a state
    /// file's tables were last brought up to date, while the directory keeps the list (``trackChanges()``); each
    /// device notes itself, once.
    final class Changes: @unchecked Sendable {
        // Used under the store's lock only, like the devices.
        fileprivate(set) var isTracking = false
        fileprivate(set) var devices: [StoreState.Device] = []

        /// Adds a device changed since the list was last taken.
        func note(_ device: StoreState.Device) {
            device.changeNoted = true
            devices.append(device)
        }
    }

    private var byID: [String: StoreState.Device] = [:]
    /// The devices that hold transactions.
    private let holders = Holders()
    /// The devices changed since the list was last taken.
    private let changes = Changes()
    /// The account each device is filed under in ``byAccount``.
    private var filedAccount: [String: String] = [:]
    /// The identifiers of each account's devices, in ascending order.
    private var byAccount: [String: [String]] = [:]

    /// An empty directory.
    init() {}

    /// The device with an identifier; storing one files it under its current account.
    subscript(id: String) -> StoreState.Device? {
        get { byID[id] }
        set {
            let stored = newValue != nil && byID[id] !== newValue
            byID[id] = newValue
            if let newValue, newValue.holders !== holders {
                newValue.holders = holders
                newValue.holderPosition = -1
                holders.update(newValue)
            }
            if let newValue, changes.isTracking {
                if newValue.changes !== changes {
                    newValue.changes = changes
                    newValue.changeNoted = false
                }
                if !newValue.changeNoted { changes.note(newValue) }
            }
            let account = newValue?.account
            let filed = filedAccount[id]
            guard account != filed else {
                // A device object stored in place of another under the same account learns whether it shares it.
                if stored, let account { noteSharing(of: account) }
                return
            }
            if let filed {
                byAccount[filed]?.removeAll { $0 == id }
                noteSharing(of: filed)
            }
            filedAccount[id] = account
            if let account {
                let position = byAccount[account]?.partitionPoint(before: id) ?? 0
                byAccount[account, default: []].insert(id, at: position)
                noteSharing(of: account)
            }
        }
    }

    /// Has the devices note their changes from now on (``takeChanges()``); nothing if they already do.
    mutating func trackChanges() {
        guard !changes.isTracking else { return }
        changes.isTracking = true
        for device in byID.values {
            device.changes = changes
            device.changeNoted = false
        }
    }

    /// The devices changed since the last call, each once, in the order they first changed; forgets them.
    mutating func takeChanges() -> [StoreState.Device] {
        let changed = changes.devices
        changes.devices = []
        for device in changed { device.changeNoted = false }
        return changed
    }

    /// Tells each device of an account whether another device shares the account (``StoreState/Device/sharesAccount``).
    private func noteSharing(of account: String) {
        let ids = byAccount[account] ?? []
        for id in ids { byID[id]?.sharesAccount = ids.count > 1 }
    }

    /// The identifiers of the devices signed in to an account, in ascending order.
    func ids(of account: String) -> [String] { byAccount[account] ?? [] }

    /// The devices that hold an unfinished transaction or a purchase made on another device, in no particular order.
    var holdingTransactions: [StoreState.Device] { holders.devices }

    /// The devices' identifiers, in no particular order.
    var keys: Dictionary<String, StoreState.Device>.Keys { byID.keys }

    /// The devices, in no particular order.
    var values: Dictionary<String, StoreState.Device>.Values { byID.values }

    /// How many devices the store knows.
    var count: Int { byID.count }

    /// The devices with their identifiers, in no particular order.
    func makeIterator() -> Dictionary<String, StoreState.Device>.Iterator { byID.makeIterator() }
}

extension Array where Element: Comparable {
    /// The first position of a sorted array whose element is not below `value`.
    func partitionPoint(before value: Element) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
