#if Server
    public import StoreSimulator

    extension StoreServer {
        /// A customer opens the cancellation flow of a subscription in `locale`, as the control API's
        /// `POST retention/cancellation-flow` does: the store signs Apple's real-time request and POSTs it to the
        /// configured Get Retention Message endpoint, then records what was shown (the backend's valid choice in time,
        /// else the product's default message in the locale, else nothing) in
        /// `SimulatedStore.retentionMessaging`.
        ///
        /// Blocks until the endpoint answered or ``StoreServerConfiguration/realtimeTimeout`` passed.
        ///
        /// - Returns: What was shown.
        /// - Throws: The store's `unknownTransaction` when `originalTransactionID` is not the original transaction of
        ///   a purchased auto-renewable subscription.
        @discardableResult
        public func openCancellationFlow(originalTransactionID: UInt64, locale: String = "en-US")
            throws(StoreSimulatorError) -> ShownRetentionMessage
        {
            try realtime.openCancellationFlow(originalTransactionID: originalTransactionID, locale: locale)
        }
    }
#endif
