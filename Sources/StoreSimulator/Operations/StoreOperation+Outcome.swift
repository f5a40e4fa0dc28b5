public import StoreModels

extension StoreOperation {
    /// What an operation made or changed, as ``SimulatedStore/perform(_:reporting:)`` returns it: the same value the
    /// store's method of the operation's name returns.
    public enum Outcome: Sendable, Hashable {
        /// The operation returns nothing.
        case done
        /// The transaction the operation made or changed: a purchase outside the app, a refund, a reversed refund, a
        /// resolved billing issue, the transaction that carries an app account token set.
        case transaction(TransactionRecord)
        /// The subscription events the operation caused, in time order: a move of the clock, an expiry, a renewal.
        case subscriptionEvents([SubscriptionEvent])
        /// The subscription as the operation left it: an extension of the renewal date.
        case subscription(SubscriptionState)
        /// A mass extension's request and what it did: ``StoreOperation/extendRenewalDates(productID:by:requestIdentifier:storefrontCountryCodes:)``.
        case massRenewalExtension(MassRenewalExtension.Outcome)
        /// The products whose price-consent sheets were shown.
        case priceConsentShown([String])

        /// The transaction, for an outcome that carries one.
        public var transaction: TransactionRecord? {
            if case .transaction(let record) = self { return record }
            return nil
        }

        /// The subscription events, or none for an outcome that carries none.
        public var subscriptionEvents: [SubscriptionEvent] {
            if case .subscriptionEvents(let events) = self { return events }
            return []
        }
    }
}
