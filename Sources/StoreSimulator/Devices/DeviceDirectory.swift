/// The devices a store knows, by identifier, and the identifiers of each account's devices in identifier order, kept up
/// to date as devices are stored, so that a renewal finds the devices of its account without a look at every device.
///
/// Storing a device (`directory[id] = device`) files it under its account; a device whose account changed since it was
/// last stored moves to its new account's list when it is stored again. Devices are added, never removed.
struct DeviceDirectory: Sendable, Sequence {
    private var byID: [String: StoreState.Device] = [:]
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
            byID[id] = newValue
            let account = newValue?.account
            let filed = filedAccount[id]
            guard account != filed else { return }
            if let filed { byAccount[filed]?.removeAll { $0 == id } }
            filedAccount[id] = account
            if let account {
                let position = byAccount[account]?.partitionPoint(before: id) ?? 0
                byAccount[account, default: []].insert(id, at: position)
            }
        }
    }

    /// The identifiers of the devices signed in to an account, in ascending order.
    func ids(of account: String) -> [String] { byAccount[account] ?? [] }

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
