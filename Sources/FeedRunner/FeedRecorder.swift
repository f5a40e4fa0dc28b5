import Foundation
import OpenStoreKit
import OpenStoreKit2
import PaywallEvents
import StoreModels
import StoreSimulator

/// Records what the app of a feed hears, in the world model and the event log: its transaction observers' and queue
/// delegate's callbacks, StoreKit's exceptions, StoreKit 2 updates, paywall callbacks, the store's subscription events
/// and the server's notifications.
///
/// What the first observer of a queue hears is what the app heard; every observer's callbacks are logged.
final class FeedRecorder {
    /// How long a feed waits for the server to have attempted every notification made so far.
    static let notificationWait: Double = 60

    let world: FeedWorld
    let log: FeedEventWriter
    /// Where the queues' programming error handlers leave StoreKit's exceptions until the run notes them.
    let exceptionInbox = FeedExceptionInbox()
    /// The server the store is served by, in a served run.
    let server: (any FeedServer)?
    /// How many of the server's notifications are in the log.
    private var notificationsLogged = 0

    init(world: FeedWorld, log: FeedEventWriter, server: (any FeedServer)?) {
        self.world = world
        self.log = log
        self.server = server
    }

    // MARK: Transaction observers

    private func isFirstObserver(_ observer: FeedObserver, of queue: SKPaymentQueue) -> Bool {
        queue.transactionObservers.first === observer
    }

    /// Whether a transaction in a state has a `transactionIdentifier`: purchased or restored.
    private static func isIdentified(_ state: SKPaymentTransactionState) -> Bool {
        state == .purchased || state == .restored
    }

    func observed(updated transactions: [SKPaymentTransaction], by observer: FeedObserver, queue: SKPaymentQueue) {
        let first = isFirstObserver(observer, of: queue)
        for transaction in transactions {
            let state = TransactionState(rawValue: transaction.transactionState.rawValue) ?? .failed
            let code = (transaction.error as? SKError).flatMap { StoreErrorCode(rawValue: $0.code.rawValue) }
            let seq = log.nextSequence()
            if first {
                let id = transaction.storeIdentifier
                let product = transaction.payment.productIdentifier
                let seat = observer.seat
                if let promotion = world.promotion, promotion.seat == seat, promotion.product == product,
                    state == .purchasing
                {
                    // The payment a promoted purchase added: it takes the `promote` step's handle.
                    world.track(id, product: product, handle: promotion.handle)
                    world.promotion = nil
                }
                world.latestByProduct[FeedWorld.SeatProduct(seat: seat, product: product)] = id
                // `transactionIdentifier` is the number written out once the transaction is purchased or restored.
                let identified = Self.isIdentified(transaction.transactionState)
                let originalNumber = transaction.original.flatMap {
                    Self.isIdentified($0.transactionState) ? $0.storeIdentifier : nil
                }
                // One lookup of the tracked transaction for all its changes.
                world.updateTracked(seat: seat, id: id, product: product) { tracked in
                    tracked.heard.append(FeedWorld.Tracked.Heard(state: state, at: seq))
                    tracked.error = code
                    if identified { tracked.transactionNumber = id }
                    tracked.originalNumber = originalNumber
                }
            }
            guard log.logs else { continue }
            var event = observerLine("updated", seq: seq, by: observer)
            event.add("handle", world.handleNames[transaction.storeIdentifier])
            event.add("product", transaction.payment.productIdentifier)
            event.add("quantity", transaction.payment.quantity)
            event.add("state", state.name)
            event.add("id", transaction.transactionIdentifier)
            if let original = transaction.original?.transactionIdentifier { event.add("original", original) }
            if let code { event.add("error", code.name) }
            log.write(event)
        }
    }

    /// An observer was asked whether to add the payment of a promoted in-app purchase, and answered.
    func observedStorePayment(_ product: String, answer: Bool, by observer: FeedObserver) {
        var event = observerLine("shouldAddStorePayment", by: observer)
        event.add("product", product)
        event.add("answer", answer)
        log.write(event)
    }

    /// A line of what an observer heard, opened with its user, its device (unless the main one) and its name.
    private func observerLine(_ name: String, seq: Int? = nil, by observer: FeedObserver) -> EventLine {
        var event = seq.map { log.line(name, seq: $0) } ?? log.line(name)
        event.add("user", observer.user)
        if observer.device != FeedWorld.mainDevice { event.add("device", observer.device) }
        event.add("observer", observer.name)
        return event
    }

    func delivered(_ transaction: SKPaymentTransaction, by observer: FeedObserver) {
        // The sequence moves on whether or not the line is written: offer nonces are made from it.
        let seq = log.nextSequence()
        guard log.logs else { return }
        var event = observerLine("delivered", seq: seq, by: observer)
        event.add("handle", world.handleNames[transaction.storeIdentifier])
        event.add("product", transaction.payment.productIdentifier)
        event.add("id", transaction.transactionIdentifier)
        log.write(event)
    }

    func observed(removed transactions: [SKPaymentTransaction], by observer: FeedObserver, queue: SKPaymentQueue) {
        let first = isFirstObserver(observer, of: queue)
        for transaction in transactions {
            let id = transaction.storeIdentifier
            if first { world.removed(id, product: transaction.payment.productIdentifier, seat: observer.seat) }
            let seq = log.nextSequence()
            guard log.logs else { continue }
            var event = observerLine("removed", seq: seq, by: observer)
            event.add("handle", world.handleNames[id])
            event.add("product", transaction.payment.productIdentifier)
            event.add("id", transaction.transactionIdentifier)
            log.write(event)
        }
        world.forgetSuperseded()
    }

    func observedRestore(failure: SKError.Code?, finished: Bool, by observer: FeedObserver, queue: SKPaymentQueue) {
        if isFirstObserver(observer, of: queue) {
            world.devices[observer.seat]?.restore = (
                finished, failure.flatMap { StoreErrorCode(rawValue: $0.rawValue) }
            )
            if finished {
                world.devices[observer.seat]?.restoresFinished += 1
            } else {
                world.devices[observer.seat]?.restoresFailed += 1
            }
        }
        var event = observerLine(finished ? "restoreFinished" : "restoreFailed", by: observer)
        if let failure { event.add("error", StoreErrorCode(rawValue: failure.rawValue)?.name ?? "unknown") }
        log.write(event)
    }

    func observedStorefront(_ countryCode: String, by observer: FeedObserver) {
        var event = observerLine("storefrontChanged", by: observer)
        event.add("storefront", countryCode)
        log.write(event)
    }

    func observedRevocation(_ products: [String], by observer: FeedObserver, queue: SKPaymentQueue) {
        if isFirstObserver(observer, of: queue) { world.devices[observer.seat]?.revoked.formUnion(products) }
        var event = observerLine("revoked", by: observer)
        event.add("products", strings: products)
        log.write(event)
    }

    /// Takes the exceptions StoreKit raised while the app finished a transaction, and notes and logs each one.
    /// `observer` is the observer that finished it, or `nil` for a `finish` step.
    func noteExceptions(for transaction: SKPaymentTransaction, on seat: String, by observer: FeedObserver?) {
        for message in exceptionInbox.take() {
            let id = transaction.storeIdentifier
            if world.devices[seat]?.firstException == nil { world.devices[seat]?.firstException = (id, message) }
            world.updateTracked(seat: seat, id: id, product: transaction.payment.productIdentifier) {
                $0.exceptions.append(message)
            }
            var event = log.line("exception")
            let user = world.devices[seat]?.queue.account ?? world.currentUser
            event.add("user", user)
            let device = observer?.device ?? (seat == user ? FeedWorld.mainDevice : world.currentDevice)
            if device != FeedWorld.mainDevice { event.add("device", device) }
            event.add("observer", observer?.name)
            event.add("handle", world.handleNames[id])
            event.add("product", transaction.payment.productIdentifier)
            event.add("message", message)
            log.write(event)
        }
    }

    // MARK: Queue delegate

    /// The queue delegate of a device was asked whether a purchase goes on in a new storefront.
    func askedToContinue(_ transaction: SKPaymentTransaction, in storefront: String, by delegate: FeedDelegate) {
        let id = transaction.storeIdentifier
        world.updateTracked(
            seat: FeedWorld.seat(delegate.user, delegate.device), id: id,
            product: transaction.payment.productIdentifier
        ) { $0.askedToContinue = true }
        var event = log.line("shouldContinue")
        event.add("user", delegate.user)
        if delegate.device != FeedWorld.mainDevice { event.add("device", delegate.device) }
        event.add("handle", world.handleNames[id])
        event.add("product", transaction.payment.productIdentifier)
        event.add("storefront", storefront)
        event.add("answer", delegate.answer)
        log.write(event)
    }

    /// The queue delegate of a device was asked whether to show a price-consent sheet.
    func askedToShowPriceConsent(by delegate: FeedDelegate) {
        let seat = FeedWorld.seat(delegate.user, delegate.device)
        world.devices[seat]?.priceConsentQuestions += 1
        var event = log.line("shouldShowPriceConsent")
        event.add("user", delegate.user)
        if delegate.device != FeedWorld.mainDevice { event.add("device", delegate.device) }
        event.add("pending", strings: world.store.pendingPriceConsent(account: delegate.user))
        event.add("answer", delegate.priceConsentAnswer)
        log.write(event)
    }

    // MARK: StoreKit 2, paywall, store and server

    /// A seat's `Transaction.updates` listener heard a transaction: its product is remembered as the latest.
    func heardStoreKit2(_ update: VerificationResult<Transaction>, seat: String, user: String, device: String?) {
        let transaction = update.unsafePayloadValue
        let verified = FeedStoreKit2.isVerified(update)
        world.storeKit2.heard[seat, default: []].append(transaction.productID)
        world.storeKit2.latest[seat + "\n" + transaction.productID] = (transaction.id, verified)
        var event = log.line("sk2-update")
        event.add("user", user)
        if let device { event.add("device", device) }
        event.add("product", transaction.productID)
        event.add("id", String(transaction.id))
        event.add("reason", transaction.reason.rawValue)
        event.add("revoked", transaction.revocationDate != nil)
        event.add("verified", verified)
        log.write(event)
    }

    /// Writes a paywall callback to the event log.
    func loggedPaywall(_ event: PaywallEvent, user: String, placement: String?, time: Date) {
        var line = log.line("paywall", time: time)
        line.add("user", user)
        line.add("placement", placement)
        line.add("callback", event.name)
        line.add("payload", raw: event.jsonString)
        log.write(line)
    }

    /// Writes the store's subscription events (renewals, billing issues, expiries) to the log, at their own times, and
    /// counts the renewals.
    func record(_ events: [SubscriptionEvent]) {
        for item in events {
            var event = log.line("subscription", time: item.date)
            event.add("kind", item.kindName)
            event.add("user", item.account)
            event.add("product", item.productID)
            event.add("original", String(item.originalID))
            event.add("id", item.transactionID.map { String($0) })
            log.write(event)
            if case .renewed = item.kind { world.renewals[item.account + "\n" + item.productID, default: 0] += 1 }
        }
    }

    /// The server's notifications once every one made so far was attempted, each not yet in the event log written to
    /// it; nil when the wait timed out or the run is not served.
    func settledNotifications() -> [FeedNotification]? {
        guard let server, let notifications = server.notifications(within: Self.notificationWait) else { return nil }
        while notificationsLogged < notifications.count {
            write(notifications[notificationsLogged])
            notificationsLogged += 1
        }
        return notifications
    }

    /// Writes a notification to the event log, at its signed date.
    private func write(_ notification: FeedNotification) {
        var event = log.line(
            "notification", time: Date(timeIntervalSince1970: Double(notification.signedDate) / 1000))
        event.add("type", notification.type)
        event.add("subtype", notification.subtype)
        event.add("product", notification.productID)
        event.add("id", notification.transactionID.map { String($0) })
        event.add("original", notification.originalTransactionID.map { String($0) })
        if let status = notification.status { event.add("status", status) }
        event.add("verified", notification.verificationFailure == nil)
        if let failure = notification.verificationFailure { event.add("verificationFailure", failure) }
        event.add("accepted", notification.accepted)
        log.write(event)
    }
}
