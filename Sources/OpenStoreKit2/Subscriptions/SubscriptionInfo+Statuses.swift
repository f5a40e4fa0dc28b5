extension Product.SubscriptionInfo.Status {
    /// The statuses of the bound account's subscriptions as they change (a renewal, a billing issue, a grace period,
    /// a recovery, an expiry), each in the store's order; endless, never throwing.
    public static var updates: Product.SubscriptionInfo.Status.Statuses {
        Statuses(client: StoreKitEnvironment.current)
    }

    /// A sequence of subscription statuses.
    public struct Statuses: AsyncSequence, Sendable {
        /// Each element is the status of the subscription that changed.
        public typealias Element = Product.SubscriptionInfo.Status

        let client: StoreKitClient

        /// Iterates the statuses.
        public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
            let client: StoreKitClient
            let listener: AsyncListener<Product.SubscriptionInfo.Status>

            /// The next status, or `nil` when the task is cancelled.
            public mutating func next() async -> Product.SubscriptionInfo.Status? {
                await listener.next()
            }
        }

        /// Makes an iterator, which hears the changes from now on.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(client: client, listener: client.addStatusListener())
        }
    }
}

extension Product.SubscriptionInfo.Status {
    /// The statuses of every subscription group the bound account has subscribed in, then the statuses of a group
    /// each time one of its subscriptions changes (iOS 17).
    ///
    /// The stream starts with one element per group the account has statuses in, in the catalog's order, and goes on
    /// with the whole group's statuses after each change ``updates`` reports; it ends when the task that iterates it
    /// is cancelled. The store starts listening when the stream is made, so no change made after that is missed.
    public static var all: AsyncStream<(groupID: String, statuses: [Product.SubscriptionInfo.Status])> {
        let client = StoreKitEnvironment.current
        return AsyncStream { continuation in
            let listener = client.addStatusListener()
            let task = Task {
                for groupID in client.subscriptionGroupIDs() {
                    let statuses = client.statusesNow(groupID: groupID)
                    if !statuses.isEmpty { continuation.yield((groupID: groupID, statuses: statuses)) }
                }
                while let status = await listener.next() {
                    guard let groupID = status.transaction.unsafePayloadValue.subscriptionGroupID else { continue }
                    continuation.yield((groupID: groupID, statuses: client.statusesNow(groupID: groupID)))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
