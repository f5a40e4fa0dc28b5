import StoreModels
import StoreSimulator

extension FeedChecker {
    /// Checks that the catalog's `product` offers the billing plan an `sk2 buy ... plan` names (an enabled plan of
    /// its `.storekit` file, or the up-front plan of a subscription that names none), as the store does at purchase.
    func checkBillingPlan(
        _ plan: BillingPlan.Kind, of product: String, in catalog: StoreCatalog, line: Int, column: Int
    ) throws(FeedError) {
        let name = FeedStep.StoreKit2Offers.name(of: plan)
        guard let definition = catalog.product(product), let info = definition.subscription,
            definition.type == .autoRenewableSubscription
        else {
            throw FeedError(
                .invalidValue, file: file, line: line, column: column,
                "\(product) is not an auto-renewable subscription; it has no billing plans",
                hint: "plan applies to a subscription; remove it or buy a subscription")
        }
        let offered = info.plans(price: definition.price).map { FeedStep.StoreKit2Offers.name(of: $0.kind) }
        guard info.plan(plan, price: definition.price) != nil else {
            throw FeedError(
                .invalidValue, file: file, line: line, column: column, "\(product) offers no \(name) billing plan",
                hint: "its billing plans are " + offered.joined(separator: ", ")
                    + " (a .storekit file of format 5 lists them in billingPlans)")
        }
    }
}
