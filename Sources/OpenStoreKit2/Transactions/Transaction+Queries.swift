extension Transaction {
    /// Transactions made outside the current purchase call, each once, in the store's order: Ask to Buy approvals,
    /// renewals, refunds (the same transaction again, with a revocation date), purchases on other devices or outside
    /// the app; and, for the first listener after launch, the device's unfinished transactions. A transaction
    /// ``Product/purchase(options:)`` returned is not sent again; a declined Ask to Buy request sends nothing.
    public static var updates: Transaction.Transactions {
        Transactions(client: StoreKitEnvironment.current, source: .updates)
    }

    /// Every transaction of the account, oldest first, except finished consumables (unless refunded).
    public static var all: Transaction.Transactions {
        Transactions(client: StoreKitEnvironment.current, source: .snapshot { await $0.all() })
    }

    /// The transactions that entitle the customer now: the latest of each non-consumable, of each auto-renewable
    /// subscription that is subscribed or in its grace period, and each non-renewing subscription; never a
    /// consumable, a refunded or a revoked one.
    public static var currentEntitlements: Transaction.Transactions {
        Transactions(client: StoreKitEnvironment.current, source: .snapshot { await $0.currentEntitlements() })
    }

    /// The device's transactions not finished yet, in the order they arrived.
    public static var unfinished: Transaction.Transactions {
        Transactions(client: StoreKitEnvironment.current, source: .snapshot { await $0.unfinished() })
    }

    /// Every transaction of a product, oldest first (as ``all``).
    ///
    /// - Parameter productID: The product.
    /// - Returns: The transactions.
    public static func all(for productID: String) -> Transaction.Transactions {
        Transactions(
            client: StoreKitEnvironment.current,
            source: .snapshot { await $0.all().filter { $0.unsafePayloadValue.productID == productID } })
    }

    /// The current entitlements of a product (as ``currentEntitlements``).
    ///
    /// - Parameter productID: The product.
    /// - Returns: The transactions.
    public static func currentEntitlements(for productID: String) -> Transaction.Transactions {
        currentEntitlements(for: productID, client: StoreKitEnvironment.current)
    }

    /// The current entitlements of a product in the store of `client`.
    static func currentEntitlements(for productID: String, client: StoreKitClient) -> Transaction.Transactions {
        Transactions(
            client: client,
            source: .snapshot {
                await $0.currentEntitlements().filter { $0.unsafePayloadValue.productID == productID }
            })
    }

    /// The latest transaction of a product, or `nil` if it was never bought (finished consumables excluded).
    ///
    /// - Parameter productID: The product.
    /// - Returns: The transaction.
    public static func latest(for productID: String) async -> VerificationResult<Transaction>? {
        await StoreKitEnvironment.current.latest(for: productID)
    }

    /// The transaction that entitles the customer to a product now, or `nil`.
    ///
    /// - Parameter productID: The product.
    /// - Returns: The transaction.
    public static func currentEntitlement(for productID: String) async -> VerificationResult<Transaction>? {
        await StoreKitEnvironment.current.currentEntitlement(for: productID)
    }
}
