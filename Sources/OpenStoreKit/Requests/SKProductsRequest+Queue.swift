extension SKProductsRequest {
    /// Creates a request answered by the store behind `queue`.
    public convenience init(productIdentifiers: Set<String>, queue: SKPaymentQueue) {
        self.init(productIdentifiers: productIdentifiers, store: queue.store)
    }
}
