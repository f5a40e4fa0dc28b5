import StoreKit

/// How an app offers a yearly subscription billed up front or monthly with a twelve-month commitment, as Apple's
/// "Supporting monthly subscriptions with a 12-month commitment" describes: the pricing terms to show, the purchase
/// with the chosen plan, and the commitment the transaction and renewal info report.
@available(iOS 26.4, macOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4, *)
enum CommitmentPlans {
    /// A line of a paywall for one way to pay.
    struct Choice: Equatable {
        let plan: Product.SubscriptionInfo.BillingPlanType
        let label: String
    }

    /// One line per pricing terms of the product: the price per billing period, and the commitment's total.
    static func choices(for product: Product) -> [Choice] {
        guard let subscription = product.subscription else { return [] }
        return subscription.pricingTerms.map { terms in
            let period: Product.SubscriptionInfo.BillingPeriod = terms.billingPeriod
            let unit = period.unit == .month ? "month" : "year"
            if terms.billingPlanType == .monthly {
                return Choice(
                    plan: terms.billingPlanType,
                    label: "\(terms.billingDisplayPrice)/\(unit), \(terms.commitmentInfo.displayPrice) over 12 months")
            }
            let trial = terms[offers: .introductory].isEmpty ? "" : ", with a free trial"
            return Choice(plan: terms.billingPlanType, label: "\(terms.billingDisplayPrice)/\(unit)\(trial)")
        }
    }

    /// The price of each billing event, read through the pricing model of iOS 27.3.
    @available(iOS 27.3, macOS 27.3, tvOS 27.3, watchOS 27.3, visionOS 27.3, *)
    static func billingPrices(for product: Product) -> [Decimal] {
        (product.subscription?.pricingTerms ?? []).compactMap { terms in
            guard case .singlePrice(let single) = terms.pricingModel else { return nil }
            return single.billingInfo.price
        }
    }

    /// Buys a product with the chosen billing plan and finishes the transaction.
    static func purchase(_ product: Product, plan: Product.SubscriptionInfo.BillingPlanType) async throws
        -> Transaction?
    {
        let result = try await product.purchase(options: [.billingPlanType(plan)])
        guard case .success(.verified(let transaction)) = result else { return nil }
        await transaction.finish()
        return transaction
    }

    /// "Payment 3 of 12" for a transaction billed monthly; nil otherwise.
    static func progress(of transaction: Transaction) -> String? {
        guard transaction.billingPlanType == .monthly, let commitment = transaction.commitmentInfo else { return nil }
        return "Payment \(commitment.billingPeriodNumber) of \(commitment.totalBillingPeriods)"
    }

    /// When the customer's commitment ends, from the subscription's renewal info.
    static func commitmentEnd(of product: Product) async throws -> Date? {
        guard let status = try await product.subscription?.status.first,
            case .verified(let renewalInfo) = status.renewalInfo
        else { return nil }
        guard renewalInfo.renewalBillingPlanType == .monthly else { return nil }
        return renewalInfo.commitmentInfo?.renewalDate
    }

    /// Whether a transaction came from the Advanced Commerce API.
    static func isAdvancedCommerce(_ transaction: Transaction) -> Bool {
        transaction.advancedCommerceInfo != nil
    }
}
