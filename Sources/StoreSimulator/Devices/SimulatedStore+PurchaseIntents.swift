import StoreModels

extension SimulatedStore {
    /// Starts a purchase in the App Store for the app to complete, as a customer does who taps a promoted in-app
    /// purchase on the app's product page, or redeems an offer there: every device signed in to the account hears
    /// ``DeviceEvent/purchaseIntent(productID:offerID:)`` on the lane. StoreKit 1 asks its observers
    /// `paymentQueue(_:shouldAddStorePayment:for:)` and adds the payment if one says yes; StoreKit 2 emits a
    /// `PurchaseIntent` on `PurchaseIntent.intents`. Nothing is bought until the app completes the purchase, so
    /// the store's state does not change and nothing is journaled: a device that is not running misses the intent.
    ///
    /// - Parameters:
    ///   - productID: The product, which must be in the catalog.
    ///   - offerID: An offer of the subscription to apply (one of its promotional or win-back offers), or `nil`.
    ///   - account: The customer.
    ///   - deviceID: The one device the customer started the purchase on, to tell it alone; `nil` tells every device
    ///     of the account.
    /// - Throws: `unknownProduct` for a product the catalog lacks; `invalidAction` for an offer the product does not
    ///   have.
    public func sendPurchaseIntent(
        productID: String, offerID: String? = nil, account: String = SimulatedStore.defaultAccount,
        deviceID: String? = nil
    ) throws(StoreSimulatorError) {
        let catalog = self.catalog
        guard let product = catalog.product(productID) else {
            throw StoreSimulatorError(.unknownProduct, "no product has identifier \(productID) in the store's catalog")
        }
        if let offerID, product.subscription?.offer(identifier: offerID) == nil {
            throw StoreSimulatorError(
                .invalidAction,
                "\(productID) has no offer \(offerID): give one of its promotional or win-back offers, or none")
        }
        let event = DeviceEvent.purchaseIntent(productID: productID, offerID: offerID)
        if let deviceID { return send(event, to: deviceID) }
        broadcast(event, account: account)
    }
}
