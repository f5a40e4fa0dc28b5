public import StoreSimulator

/// The App Store server side a feed runs beside (`openstorekit run FEED --serve`): it serves the feed's store over
/// HTTP, sends the Server Notifications V2 the store's changes call for (it hears every change from the store's change
/// feed, the feed's own steps included), and tells the feed which ones were sent, so that `expect notification` steps
/// can check them.
///
/// Its methods are called on the feed's thread and may block it while they wait (bounded): a served run belongs on a
/// thread of its own (the command line's main thread), not on one of Swift concurrency's shared threads.
///
/// FeedRunner declares it and never builds a server itself: the command line provides one (in a build with the
/// package trait `Server`), so FeedRunner does not depend on the server module.
public protocol FeedServer: AnyObject {
    /// The bundle identifier the feed's store is made for (the server's `--bundle-id`), or nil for the store's default
    /// app.
    var bundleIdentifier: String? { get }

    /// Starts serving the feed's store, before the feed's first step.
    ///
    /// - Returns: nil once serving, or what keeps the server from starting (a port already taken, for instance).
    func start(serving store: SimulatedStore) -> String?

    /// Waits, at most `seconds`, until every notification made so far (and every retry due on the store's clock) was
    /// attempted, then returns every notification made so far, oldest first.
    ///
    /// - Returns: the notifications, or nil when some were still not attempted after `seconds`.
    func notifications(within seconds: Double) -> [FeedNotification]?

    /// A customer opens the cancellation flow of the subscription whose original transaction is
    /// `originalTransactionID`: the server sends the backend its signed real-time request and the store records what
    /// was shown (Retention Messaging).
    ///
    /// - Returns: what was shown, or the store's error; nil when the server does not serve Retention Messaging (the
    ///   feed then records the flow without a backend).
    func openCancellationFlow(originalTransactionID: UInt64, locale: String)
        -> Result<ShownRetentionMessage, StoreSimulatorError>?

    /// The feed ended (its last step ran, or one failed): stops serving, possibly after serving on until the process
    /// is asked to stop. The feed's store is closed after this returns. Called once.
    func finish()
}

extension FeedServer {
    /// A server that does not serve Retention Messaging: nil, so the feed records the flow without a backend.
    public func openCancellationFlow(originalTransactionID: UInt64, locale: String)
        -> Result<ShownRetentionMessage, StoreSimulatorError>?
    { nil }
}
