/// A purchase the customer started outside the app, in the App Store (a promoted in-app purchase, or an offer
/// redeemed there), for the app to complete (iOS 16.4).
///
/// ```swift
/// for await intent in PurchaseIntent.intents {
///     _ = try? await intent.product.purchase()
/// }
/// ```
///
/// A test sends one with `SKTestSession.sendPurchaseIntent(productIdentifier:offerIdentifier:)` or the store's
/// `sendPurchaseIntent(productID:offerID:account:deviceID:)`.
public struct PurchaseIntent: Identifiable, Equatable, Hashable, Sendable {
    /// The product the customer chose.
    public let product: Product
    /// The subscription offer to apply, if the customer chose one (iOS 18).
    public let offer: Product.SubscriptionOffer?

    /// The product's identifier.
    public var id: Product.ID { product.id }

    /// The purchase intents of the bound device, as customers start them; endless, never throwing. Iterate it from a
    /// task started as early as the app launches: the intents that arrived while nothing listened wait for the first
    /// iterator.
    public static var intents: PurchaseIntent.PurchaseIntents {
        PurchaseIntents(client: StoreKitEnvironment.current)
    }

    /// A sequence of purchase intents.
    public struct PurchaseIntents: AsyncSequence, Sendable {
        /// Each element is an intent.
        public typealias Element = PurchaseIntent

        let client: StoreKitClient

        /// Iterates the intents.
        public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
            let listener: AsyncListener<PurchaseIntent>

            /// The next intent, or `nil` when the task is cancelled.
            public mutating func next() async -> PurchaseIntent? {
                await listener.next()
            }
        }

        /// Makes an iterator, which hears the intents that waited for a listener and then the new ones.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(listener: client.addIntentListener())
        }
    }
}
