import Foundation
import OpenStoreKit
import OpenStoreKit2
import StoreModels
import StoreSimulator

/// What a feed run knows of its app and users: the store the devices talk to, each user's devices with their queues,
/// observers and delegate, the current user and device, the handles the feed named, the transactions each device heard
/// and the latest of each product, the renewals the store reported, and the app's StoreKit 2 and paywall sides.
///
/// The interpreter changes it as it carries out steps, the recorder as the app hears callbacks; the expectation
/// checker reads it.
final class FeedWorld {
    /// A transaction as one device heard it.
    struct Tracked {
        /// A state the app heard, with its event log position.
        struct Heard {
            var state: TransactionState
            var at: Int
        }

        var product: String
        /// What the app heard, in order: one array, one allocation.
        var heard: [Heard] = []
        var removed = false
        var error: StoreErrorCode?
        /// `transactionIdentifier` and `original?.transactionIdentifier`, as the app last heard them, as numbers: the
        /// identifiers StoreKit gives are a transaction's number written out, so they are written only when read.
        var transactionNumber: UInt64?
        var originalNumber: UInt64?
        /// The exceptions StoreKit raised when the app finished the transaction too early.
        var exceptions: [String] = []
        /// Whether the queue's delegate was asked to go on with it in a new storefront.
        var askedToContinue = false

        /// The states the app heard, in order.
        var states: [TransactionState] { heard.map(\.state) }
        /// `transactionIdentifier` as the app last heard it.
        var transactionID: String? { transactionNumber.map { String($0) } }
        /// `original?.transactionIdentifier` as the app last heard it.
        var originalID: String? { originalNumber.map { String($0) } }
    }

    /// A product of a device (its seat in ``devices``): the key of the latest transaction of the product the device
    /// heard of, hashed without joining the two into a new string.
    struct SeatProduct: Hashable {
        var seat: String
        var product: String
    }

    /// A transaction as one device heard it: devices of one account hear the same transactions (renewals, purchases
    /// made elsewhere) under the same identifier.
    struct TrackedKey: Hashable {
        var seat: String
        var id: UInt64
    }

    /// A promoted in-app purchase a `promote` step started: the payment the seat's queue adds for the product takes
    /// the handle.
    struct Promotion {
        var seat: String
        var product: String
        var handle: String?
    }

    /// The promoted purchase of the `promote` step being carried out, until its payment is added.
    var promotion: Promotion?

    /// One device of a user, with its app: the queue, its observers and what the first observer heard.
    struct Device {
        var queue: SKPaymentQueue
        var observers: [FeedObserver] = []
        var restore: (finished: Bool, failure: StoreErrorCode?)?
        var revoked = Set<String>()
        /// How many restores finished and failed since the app started.
        var restoresFinished = 0
        var restoresFailed = 0
        /// The first exception StoreKit raised since the app started (finishing a purchasing or deferred
        /// transaction).
        var firstException: (id: UInt64, message: String)?
        /// The queue's delegate (the queue holds it weakly).
        var delegate: FeedDelegate?
        /// How many times the delegate was asked whether to show a price-consent sheet since the app started.
        var priceConsentQuestions = 0
    }

    /// The name of a user's first device.
    static let mainDevice = "main"
    /// The fewest tracked transactions ``forgetSuperseded()`` looks through.
    static let forgetFloor = 4_096

    /// The store the devices talk to; a restart on a state file replaces it.
    var store: SimulatedStore
    let clock: ManualClock
    /// The devices of every user, by seat (``seat(_:_:)``).
    var devices: [String: Device] = [:]
    /// The seats in the order they were made.
    private(set) var seatOrder: [String] = []
    var currentUser = SimulatedStore.defaultAccount
    /// The device each user acts on, by user; a user not listed acts on ``mainDevice``.
    var currentDevices: [String: String] = [:]
    private(set) var handles: [String: UInt64] = [:]
    private(set) var handleNames: [UInt64: String] = [:]
    /// The device each handle was named on.
    private var handleSeats: [UInt64: String] = [:]
    private(set) var tracked: [TrackedKey: Tracked] = [:]
    /// The latest transaction of each product each device heard of.
    var latestByProduct: [SeatProduct: UInt64] = [:]
    /// How many tracked transactions ``forgetSuperseded()`` lets be before it looks for ones to forget.
    private var forgetAbove = FeedWorld.forgetFloor
    /// How many tracked transactions ``forgetSuperseded()`` has looked at in all.
    private(set) var trackedVisited = 0
    /// How many renewals the store reported, by `account + "\n" + product`.
    var renewals: [String: Int] = [:]
    /// What the app did and heard through StoreKit 2.
    let storeKit2 = FeedStoreKit2()
    /// The paywall shown by `paywall` steps, if any.
    var paywall: FeedPaywall?

    init(store: SimulatedStore, clock: ManualClock) {
        self.store = store
        self.clock = clock
    }

    // MARK: Seats

    /// The key of a device of a user in ``devices``: the user's name for the first device.
    static func seat(_ user: String, _ device: String) -> String {
        device == mainDevice ? user : user + "\n" + device
    }

    /// The device the current user acts on.
    var currentDevice: String { currentDevices[currentUser] ?? Self.mainDevice }

    /// The key of the current user's current device in ``devices``.
    var currentSeat: String { Self.seat(currentUser, currentDevice) }

    /// The current user's device, for messages: `user alice` or `device ipad of alice`.
    var currentSeatDescription: String {
        currentDevice == Self.mainDevice ? "user \(currentUser)" : "device \(currentDevice) of \(currentUser)"
    }

    /// Adds a device that is not there yet, after the others.
    func add(_ device: Device, at seat: String) {
        devices[seat] = device
        seatOrder.append(seat)
    }

    /// StoreKit 2 on the current user's device, started on first use.
    func currentStoreKit2Driver() -> StoreKitDriver? {
        if let driver = storeKit2.drivers[currentSeat] { return driver }
        guard let queue = devices[currentSeat]?.queue else { return nil }
        let driver = StoreKitDriver(store: store, deviceID: queue.deviceID, account: queue.account)
        storeKit2.drivers[currentSeat] = driver
        return driver
    }

    // MARK: Transactions

    /// Starts tracking a transaction the current device made, as the latest of its product, under `handle` if the
    /// feed named one.
    func track(_ id: UInt64, product: String, handle: String?) {
        let key = TrackedKey(seat: currentSeat, id: id)
        if tracked[key] == nil { tracked[key] = Tracked(product: product) }
        latestByProduct[SeatProduct(seat: key.seat, product: product)] = id
        guard let handle else { return }
        handles[handle] = id
        handleNames[id] = handle
        handleSeats[id] = currentSeat
    }

    /// Changes what a device heard of a transaction, starting a record of it if there is none.
    func updateTracked(seat: String, id: UInt64, product: String, _ body: (inout Tracked) -> Void) {
        body(&tracked[TrackedKey(seat: seat, id: id), default: Tracked(product: product)])
    }

    /// A device heard a transaction removed from its queue: one without a handle that is not the latest of its
    /// product is forgotten at once.
    func removed(_ id: UInt64, product: String, seat: String) {
        let key = TrackedKey(seat: seat, id: id)
        tracked[key]?.removed = true
        if handleNames[id] == nil, latestByProduct[SeatProduct(seat: seat, product: product)] != id {
            tracked[key] = nil
        }
    }

    /// Keeps memory flat: a removed transaction without a handle is forgotten once a newer one of its product exists.
    ///
    /// The pass over every tracked transaction runs only when their number has doubled since the last pass (and is
    /// above 4,096), so its cost per step stays constant however many users and transactions the feed has.
    func forgetSuperseded() {
        guard tracked.count > forgetAbove else { return }
        trackedVisited += tracked.count
        let keep = Set(handles.values).union(latestByProduct.values)
        // Removed in place: a filtered copy would hold the table twice at the peak of memory.
        let forgotten = tracked.compactMap { keep.contains($0.key.id) || !$0.value.removed ? nil : $0.key }
        for key in forgotten { tracked[key] = nil }
        forgetAbove = max(Self.forgetFloor, 2 * tracked.count)
    }

    /// A transaction as the current device heard it. A handle of another user's transaction is what that user's
    /// device heard.
    func heard(_ reference: FeedStep.Reference) -> Tracked? {
        guard let id = resolve(reference) else { return nil }
        if let mine = tracked[TrackedKey(seat: currentSeat, id: id)] { return mine }
        guard case .handle = reference, let seat = handleSeats[id], devices[seat]?.queue.account != currentUser else {
            return nil
        }
        return tracked[TrackedKey(seat: seat, id: id)]
    }

    /// The transaction a step names: a handle of a StoreKit 1 or StoreKit 2 purchase, or the latest transaction of a
    /// product the current device heard of.
    func resolve(_ reference: FeedStep.Reference) -> UInt64? {
        switch reference {
        case .handle(let name): handles[name] ?? storeKit2.purchases[name]?.transactionID
        case .product(let id):
            latestByProduct[SeatProduct(seat: currentSeat, product: id)]
                ?? storeKit2.latest[currentSeat + "\n" + id]?.id
        }
    }
}
