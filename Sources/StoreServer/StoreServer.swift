#if Server
    public import Foundation
    import ReceiptKit
    public import StoreSimulator

    /// The App Store's server side over HTTP, for a simulated store: the App Store Server API under Apple's paths, Server
    /// Notifications V2 sent to a backend, and a control API that drives the store.
    ///
    /// ```swift
    /// let store = SimulatedStore(lane: .manual)
    /// let server = try StoreServer(store: store, configuration: StoreServerConfiguration(
    ///     apiKeys: [APIKey(keyID: "KEY123", key: key)], issuerID: "issuer",
    ///     notificationsURL: URL(string: "http://127.0.0.1:8080/notifications")))
    /// print(server.baseURL)            // http://127.0.0.1:PORT; Apple's paths are directly under it
    /// ...
    /// server.stop()
    /// ```
    ///
    /// The server observes its store's change feed (`SimulatedStore.addChangeObserver(_:)`): every
    /// change the store applies is notified, whoever made it (the control API, ``perform(_:)``, a device connected to
    /// the store, a test moving its clock or refunding), in store order, signed as it stood at the change. The feed is
    /// told on the store's lane: the server runs the lane after each change it makes itself, one at a time, so the store
    /// should run on a `.manual` lane, and a test that changes the store directly runs it (`runUntilIdle()`) as it does
    /// for a device's callbacks. Every date it reads or writes is on the store's clock.
    public final class StoreServer: Sendable {
        /// The store served.
        public let store: SimulatedStore
        /// The notifications made, with their attempts.
        public let notifications: NotificationSender
        /// The bearer token of the control API.
        public let controlToken: String
        /// The configuration.
        public let configuration: StoreServerConfiguration
        private let driver: StoreDriver
        private let http: HTTPServer
        /// Sends Retention Messaging's real-time requests.
        let realtime: RetentionRealtime

        /// Starts serving.
        ///
        /// - Throws: ``StoreServerError`` when the address may not or cannot be listened on, or the notification
        ///   history cannot be opened.
        public init(store: SimulatedStore, configuration: StoreServerConfiguration) throws(StoreServerError) {
            self.store = store
            self.configuration = configuration
            let token = configuration.controlToken ?? UUID().uuidString.lowercased()
            controlToken = token
            let signed = SignedStoreData(store: store)
            let notifications = try NotificationSender(
                url: configuration.notificationsURL, timeout: configuration.notificationTimeout,
                signer: store.jwsSigner, delivery: configuration.notificationDelivery,
                history: Self.historyPlace(store, configuration), now: { store.now })
            self.notifications = notifications
            let driver = StoreDriver(
                store: store, signed: signed, notifications: notifications, environment: store.jwsEnvironment)
            self.driver = driver
            let bundleID = configuration.bundleID ?? store.app.bundleIdentifier
            let realtime = RetentionRealtime(
                store: store, driver: driver, client: RealtimeClient(timeout: configuration.realtimeTimeout))
            self.realtime = realtime
            Self.registerOfferKeys(configuration.apiKeys, in: store)
            let api = AppStoreServerAPI(
                store: store, signed: signed,
                verifier: BearerTokenVerifier(
                    keys: configuration.apiKeys, issuerID: configuration.issuerID, bundleID: bundleID,
                    now: { store.now }),
                notifications: notifications, driver: driver, environment: store.jwsEnvironment, bundleID: bundleID,
                limiter: configuration.rateLimits.map(RateLimiter.init(limits:)), realtime: realtime
            )
            let control = ControlAPI(
                store: store, driver: driver, notifications: notifications, token: token, realtime: realtime)
            do {
                http = try HTTPServer(configuration: configuration.http) { request in
                    let isAPI = request.path.hasPrefix("/inApps/")
                    let isControl = request.path.hasPrefix(ControlAPI.prefix)
                    // A durable store whose database failed goes on in memory only: answering from it would show
                    // changes a restart does not bring back, so nothing is answered until the server is restarted.
                    if isAPI || isControl, store.isDurable, let failure = store.durabilityError {
                        return isAPI ? APIError.generalInternal.response : ControlAPI.storeFailed(failure)
                    }
                    if isAPI { return api.handle(request) }
                    if isControl { return control.handle(request) }
                    return .text(404, "Not Found\n")
                }
            } catch {
                notifications.stop()
                driver.stop()
                throw error
            }
            notifications.queueDueRetries()
        }

        /// Where the notification history is kept: the configuration's file, or the file beside the store's state
        /// file (`<statePath>.notifications`), or for a store on a server database, which has no file beside it, the
        /// collection `openstorekit.server.notifications` of its database; nowhere for an in-memory store.
        private static func historyPlace(_ store: SimulatedStore, _ configuration: StoreServerConfiguration)
            -> NotificationHistory.Place?
        {
            if let path = configuration.notificationHistoryPath ?? store.statePath.map({ $0 + ".notifications" }) {
                return .file(path)
            }
            guard let location = store.databaseLocation, let ledger = store.ledger else { return nil }
            // The database itself, not the store: asking the store for it would wait for the store's gate, held by a
            // change whose notification waits for the sender, which holds its lock while it writes. Weak: once the
            // store is closed and lets it go, writing the history fails instead of keeping the database in use.
            return .database(location: location) { [weak ledger] in ledger }
        }

        /// Gives the store the public halves of the In-App Purchase keys that are not already among its
        /// subscription-offer keys: the same keys sign StoreKit's offers (promotional offers, signed as JWS or not, and
        /// introductory offer eligibility), which the store checks with them.
        private static func registerOfferKeys(_ keys: [APIKey], in store: SimulatedStore) {
            let known = store.settings.subscriptionOfferKeys
            var added: [String: String] = [:]
            for key in keys where known[key.keyID] == nil {
                added[key.keyID] = try? key.key.publicKeyPEM()
            }
            guard !added.isEmpty else { return }
            store.updateSettings { $0.subscriptionOfferKeys.merge(added) { old, _ in old } }
        }

        deinit {
            stop()
        }

        /// The port listened on.
        public var port: UInt16 { http.port }

        /// `http://HOST:PORT`: the App Store Server API's base URL (`/inApps/...` under it) and the control API's
        /// (`/openstorekit/v1/...`).
        public var baseURL: URL {
            let host = configuration.http.numericHost
            let shown = host.contains(":") ? "[\(host)]" : host
            // swift-format-ignore: NeverForceUnwrap
            return URL(string: "http://\(shown):\(http.port)")!
        }

        /// Applies an operation to the store as the control API does (one at a time, the lane run after it, so the
        /// change's notifications are made when it returns). A change made on the store directly is notified the same
        /// way once its lane runs.
        ///
        /// - Returns: What the operation made or changed (`SimulatedStore.perform(_:reporting:)`).
        /// - Throws: The store's error for the operation, with nothing changed.
        @discardableResult
        public func perform(_ operation: StoreOperation) throws(StoreSimulatorError) -> StoreOperation.Outcome {
            try driver.perform(operation)
        }

        /// Stops listening and sending (waiting for the requests being answered); the store stays open. Idempotent.
        public func stop() {
            http.stop()
            notifications.stop()
            driver.stop()
        }
    }
#endif
