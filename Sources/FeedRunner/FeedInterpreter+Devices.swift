import OpenStoreKit
import StoreSimulator

extension FeedInterpreter {
    /// Makes a device of a user, with its queue and `app` observer, unless it exists.
    ///
    /// The first device of `default` is ``SKPaymentQueue/defaultDeviceID``, the first device of any other user `NAME`
    /// is `device-NAME`, and every other device `D` of a user `U` is `device-U D` (names hold no spaces, so no two
    /// devices share an identifier).
    func ensureUser(_ name: String, device: String) {
        let seat = FeedWorld.seat(name, device)
        // Looked up without copying the device out (its queue, observers and delegate retained and released).
        guard world.devices.index(forKey: seat) == nil else { return }
        let deviceID =
            device != FeedWorld.mainDevice
            ? "device-\(name) \(device)"
            : name == SimulatedStore.defaultAccount ? SKPaymentQueue.defaultDeviceID : "device-\(name)"
        let queue = SKPaymentQueue(store: store, deviceID: deviceID, account: name)
        world.add(FeedWorld.Device(queue: queue), at: seat)
        let observer = FeedObserver(
            name: "app", user: name, device: device, policy: .auto, storePayments: true, recorder: recorder)
        world.devices[seat]?.observers.append(observer)
        install(observer, on: queue)
    }

    /// Adds an observer to a queue, and has the queue report StoreKit's exceptions to the run instead of trapping.
    private func install(_ observer: FeedObserver, on queue: SKPaymentQueue) {
        let exceptions = recorder.exceptionInbox
        queue.programmingErrorHandler = { message in exceptions.post(message) }
        queue.add(observer)
    }

    /// The app stops and starts again. On a state file (or server database) the store is closed and reopened from
    /// it, as a new process would; in memory the same store goes on. Returns a failure message if the state file cannot be reopened.
    func restart() -> String? {
        // A served store stays open: the app restarts, the App Store's servers do not.
        if let statePath, server == nil {
            do throws(StoreSimulatorError) {
                try store.close()
                world.store = try SimulatedStore(
                    database: statePath, durability: durability, configuration: .demo, clock: clock, lane: .manual)
            } catch {
                return "the store could not be reopened from its state file: \(error.detail)"
            }
        }
        var names: [String] = []
        for seat in world.seatOrder {
            guard let device = world.devices[seat] else { continue }
            let account = device.queue.account
            if !names.contains(account) { names.append(account) }
            let queue = SKPaymentQueue(store: store, deviceID: device.queue.deviceID, account: account)
            let observers = device.observers.map {
                FeedObserver(
                    name: $0.name, user: account, device: $0.device, policy: $0.policy,
                    storePayments: $0.storePayments, recorder: recorder)
            }
            let delegate = device.delegate.map {
                FeedDelegate(
                    user: account, device: $0.device, answer: $0.answer, priceConsentAnswer: $0.priceConsentAnswer,
                    recorder: recorder)
            }
            world.devices[seat] = FeedWorld.Device(queue: queue, observers: observers, delegate: delegate)
            queue.delegate = delegate
            for observer in observers { install(observer, on: queue) }
        }
        var event = log.line("restarted")
        event.add("users", strings: names)
        log.write(event)
        restartStoreKit2()
        return nil
    }
}
