extension SKPaymentQueue {
    /// The store behind this queue as app-side code sees it: receipts and their verification, time, billing state, the
    /// app's identity. App-side modules use this rather than ``store``, so they never depend on the simulator.
    public var environment: any StoreEnvironment { store }
}
