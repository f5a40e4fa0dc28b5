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
