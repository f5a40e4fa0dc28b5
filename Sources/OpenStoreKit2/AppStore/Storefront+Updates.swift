extension Storefront {
    /// The storefronts the bound account moves to, as they change; endless, never throwing.
    public static var updates: Storefront.Storefronts {
        Storefronts(client: StoreKitEnvironment.current)
    }

    /// A sequence of storefront changes.
    public struct Storefronts: AsyncSequence, Sendable {
        /// Each element is the new storefront.
        public typealias Element = Storefront

        let client: StoreKitClient

        /// Iterates the changes.
        public struct AsyncIterator: AsyncIteratorProtocol {
            let client: StoreKitClient
            var listener: AsyncListener<Storefront>?

            /// The next storefront, or `nil` when the task is cancelled.
            public mutating func next() async -> Storefront? {
                if listener == nil { listener = client.addStorefrontListener() }
                return await listener?.next()
            }
        }

        /// Makes an iterator, which hears the changes from now on.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(client: client, listener: client.addStorefrontListener())
        }
    }
}
