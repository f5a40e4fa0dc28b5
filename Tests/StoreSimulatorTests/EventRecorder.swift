import Synchronization

@testable import StoreSimulator

/// A listener that implements only the required method and writes down every event a device hears, in order.
final class EventRecorder: DeviceListener, Sendable {
    private let log = Mutex<[DeviceEvent]>([])

    /// The events heard so far.
    var events: [DeviceEvent] { log.withLock { $0 } }

    func connection(_ connection: DeviceConnection, didProduce event: DeviceEvent) {
        log.withLock { $0.append(event) }
    }
}
