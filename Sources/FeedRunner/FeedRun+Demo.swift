extension FeedRun {
    /// The built-in demo feed that `openstorekit demo` runs on the built-in catalog: a purchase, a failure, an Ask to
    /// Buy approval and a restore.
    public static let demo = """
        # The OpenStoreKit demo: one user, the built-in catalog, an app that delivers and finishes as it should.
        config demo

        # A purchase goes purchasing -> purchased, is delivered, finished and removed.
        buy com.example.pro as pro
        expect states pro purchasing purchased
        expect removed pro
        expect owned com.example.pro

        # The customer cancels: the transaction fails with paymentCancelled and is finished.
        next com.example.coins100 fails paymentCancelled
        buy com.example.coins100 as coins
        expect states coins purchasing failed
        expect error coins paymentCancelled

        # Ask to Buy: the purchase waits; a parent approves a day later.
        set ask-to-buy on
        buy com.example.premium.monthly as monthly
        expect states monthly purchasing deferred
        set ask-to-buy off
        advance 1d
        approve monthly
        expect states monthly purchasing deferred purchased
        expect subscribed com.example.premium.monthly until 2026-01-09T00:00:00Z

        # Restore: the non-consumable and the subscription come back; the consumable does not.
        restore
        expect restore finished
        expect unfinished 0
        """
}
