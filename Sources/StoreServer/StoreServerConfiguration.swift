#if Server
    public import Foundation

    /// How a ``StoreServer`` listens, whom it lets in and where it sends notifications.
    public struct StoreServerConfiguration: Sendable {
        /// Where to listen (loopback by default) and the limits on clients.
        public var http: HTTPServerConfiguration
        /// The keys that may sign App Store Server API tokens (`--api-key KEYID=FILE.p8`).
        public var apiKeys: [APIKey]
        /// The issuer id tokens must name (`--issuer-id`).
        public var issuerID: String
        /// The bundle id tokens must name (`--bundle-id`); the store's app when nil.
        public var bundleID: String?
        /// Where Server Notifications V2 are POSTed (`--notifications-url`); none are sent when nil.
        public var notificationsURL: URL?
        /// How long a receiver may take to answer one notification before the attempt counts as `TIMED_OUT`.
        public var notificationTimeout: TimeInterval
        /// The bearer token of the control API; a random one when nil (read it from ``StoreServer/controlToken``).
        public var controlToken: String?
        /// Where the notification history is kept across restarts; when nil, beside the store's state file
        /// (`STATE.notifications`) for a store on a state file, in the store's own database (collection
        /// `openstorekit.server.notifications`) for a store on a server database, in memory only otherwise.
        public var notificationHistoryPath: String?
        /// Apple's rate limits to enforce on the App Store Server API (`--rate-limits`); none when nil.
        public var rateLimits: RateLimits?
        /// Whether failed notifications are retried as in production (the default) or attempted once as in the
        /// sandbox (`--delivery`).
        public var notificationDelivery: NotificationDelivery
        /// How long a developer's Get Retention Message endpoint may take to answer a real-time request before the
        /// store shows the default message instead (docs/decisions.md 102).
        public var realtimeTimeout: TimeInterval = 2

        /// Creates a configuration.
        public init(
            http: HTTPServerConfiguration = HTTPServerConfiguration(), apiKeys: [APIKey] = [], issuerID: String = "",
            bundleID: String? = nil, notificationsURL: URL? = nil, notificationTimeout: TimeInterval = 10,
            controlToken: String? = nil, notificationHistoryPath: String? = nil, rateLimits: RateLimits? = nil,
            notificationDelivery: NotificationDelivery = .production
        ) {
            self.http = http
            self.apiKeys = apiKeys
            self.issuerID = issuerID
            self.bundleID = bundleID
            self.notificationsURL = notificationsURL
            self.notificationTimeout = notificationTimeout
            self.controlToken = controlToken
            self.notificationHistoryPath = notificationHistoryPath
            self.rateLimits = rateLimits
            self.notificationDelivery = notificationDelivery
        }
    }
#endif
