import Foundation
import StoreModels
import StoreSimulator
import Synchronization
import Testing

/// A device that implements only the required methods, and writes down every event.
private final class EventLog: StoreDevice, Sendable {
    let deviceID: String
    private let log = Mutex<[DeviceEvent]>([])

    init(_ deviceID: String) { self.deviceID = deviceID }

    var events: [DeviceEvent] { log.withLock { $0 } }

    func store(_ store: SimulatedStore, didProduce event: DeviceEvent) {
        log.withLock { $0.append(event) }
    }

    func store(_ store: SimulatedStore, shouldContinue transaction: DeviceTransaction, in storefront: Storefront)
        -> Bool
    { true }
}

@Suite("Device events")
struct DeviceEventTests {
    @Test("A device that only handles events hears a decided payment as updated and a finished one as removed")
    func defaultEvents() throws {
        let store = SimulatedStore(lane: .manual)
        let device = EventLog("phone")
        #expect(store.connect(device).isEmpty)
        let submitted = store.submit(PaymentRequest(productID: "com.example.coins100"), deviceID: "phone")
        #expect(submitted.state == .purchasing)
        store.processPayment(submitted.id, deviceID: "phone")
        let decided = try #require(store.unfinishedTransactions(deviceID: "phone").first)
        #expect(decided.state == .purchased)
        #expect(device.events == [.updated([decided])])
        #expect(store.finish(submitted.id, deviceID: "phone"))
        #expect(device.events == [.updated([decided]), .removed([submitted.id])])
        #expect(!store.finish(submitted.id, deviceID: "phone"), "finishing twice finds nothing")
        #expect(device.events.count == 2)
    }

    @Test("A payment for a device the store does not know yet is kept for it, and decided when it connects")
    func unknownDevice() throws {
        let store = SimulatedStore(lane: .manual)
        let submitted = store.submit(PaymentRequest(productID: "com.example.pro"), deviceID: "tablet")
        store.processPayment(submitted.id, deviceID: "tablet")
        let device = EventLog("tablet")
        let unfinished = store.connect(device)
        #expect(unfinished.map(\.id) == [submitted.id])
        #expect(unfinished.first?.state == .purchased)
        #expect(device.events.isEmpty, "what was decided before the device connected is in what connect returns")
    }
}
