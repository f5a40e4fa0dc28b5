package import StoreSimulator

extension Product.PurchaseOption {
    /// An option carrying StoreKit Test's purchase options, which StoreKit Test makes
    /// (`purchaseDate(_:renewalBehavior:)`, `promotionalOffer(id:)`, `codeOffer(referenceName:)`).
    package init(testing options: TestPurchaseOptions) { self.init(.testing(options)) }

    /// The StoreKit Test purchase options this option carries, if it is one of them.
    package var testPurchaseOptions: TestPurchaseOptions? {
        if case .testing(let options) = kind { return options }
        return nil
    }

    /// The billing plan type this option asks for, if it is `.billingPlanType(_:)`.
    package var billingPlanType: Product.SubscriptionInfo.BillingPlanType? {
        if case .billingPlanType(let type) = kind { return type }
        return nil
    }
}
