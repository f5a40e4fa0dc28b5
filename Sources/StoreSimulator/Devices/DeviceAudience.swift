import StoreModels

/// The listeners of a device at the moment the store produces an event, with their connections: most devices have
/// one, which needs no array.
enum DeviceAudience {
    case none
    case one(DeviceConnection, any DeviceListener)
    case many([(DeviceConnection, any DeviceListener)])

    /// Whether nobody listens.
    var isEmpty: Bool {
        if case .none = self { return true }
        return false
    }

    /// Whether a connection is among the listeners.
    func contains(_ connection: DeviceConnection) -> Bool {
        switch self {
        case .none: false
        case .one(let only, _): only === connection
        case .many(let all): all.contains { $0.0 === connection }
        }
    }

    /// Calls a body with each listener and its connection, in attach order.
    func callEach(_ body: (DeviceConnection, any DeviceListener) -> Void) {
        switch self {
        case .none:
            break
        case .one(let connection, let listener):
            body(connection, listener)
        case .many(let all):
            for (connection, listener) in all { body(connection, listener) }
        }
    }
}
