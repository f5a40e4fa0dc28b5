public import Foundation
import StoreModels

extension Product.SubscriptionInfo {
    /// One way to pay for a subscription: its billing plan, what each billing event charges, how often, and the
    /// commitment (iOS 26.4). A subscription has one pricing terms per billing plan its configuration offers (a
    /// `.storekit` file's `billingPlans`), or one up-front terms at the product's price when it names none
    /// (docs/decisions.md 109).
    public struct PricingTerms: Equatable, Hashable, Sendable {
        /// The pricing models of a subscription (iOS 27.3). The simulated store sells subscriptions individually, so
        /// every pricing terms is ``singlePrice(_:)``; seat-based pricing is not modelled.
        public enum PricingModel: Equatable, Hashable, Sendable {
            /// A single price for the subscription (iOS 27.3).
            case singlePrice(Product.SubscriptionInfo.PricingTerms.SinglePrice)
        }

        /// The price and commitment of a subscription that has a single price (iOS 27.3).
        public struct SinglePrice: Equatable, Hashable, Sendable {
            /// The price charged at each billing event, and the period between renewals (iOS 27.3).
            public let billingInfo: Product.SubscriptionInfo.BillingInfo
            /// The commitment, including the total price across the commitment period (iOS 27.3).
            public let commitmentInfo: Product.SubscriptionInfo.CommitmentInfo
        }

        /// The billing plan of these terms (iOS 26.4).
        public let billingPlanType: Product.SubscriptionInfo.BillingPlanType
        /// The period between billing events (iOS 26.4): a month billed monthly, the subscription period up front.
        public let billingPeriod: Product.SubscriptionInfo.BillingPeriod
        /// The price charged at each billing event (iOS 26.4).
        public let billingPrice: Decimal
        /// ``billingPrice``, formatted for the storefront (iOS 26.4; Apple lists it until 27.3, which moves it to
        /// ``pricingModel``).
        public let billingDisplayPrice: String
        /// The commitment the customer agrees to when they subscribe (iOS 26.4; Apple lists it until 27.3, which
        /// moves it to ``pricingModel``).
        public let commitmentInfo: Product.SubscriptionInfo.CommitmentInfo
        /// The offers that apply with these terms (iOS 26.4): the subscription's introductory, promotional and
        /// win-back offers up front; none billed monthly, where the store applies no offer.
        public let subscriptionOffers: [Product.SubscriptionOffer]

        init(
            _ plan: BillingPlan, period: Product.SubscriptionPeriod, offers: [Product.SubscriptionOffer],
            currencyCode: String, locale: Locale
        ) {
            billingPlanType = BillingPlanType(plan.kind)
            billingPeriod =
                plan.kind == .monthly
                ? Product.SubscriptionPeriod(StoreModels.SubscriptionPeriod(value: 1, unit: .month)) : period
            billingPrice = plan.price
            billingDisplayPrice = Product.format(plan.price, currencyCode: currencyCode, locale: locale)
            commitmentInfo = CommitmentInfo(
                price: plan.commitmentPrice,
                displayPrice: Product.format(plan.commitmentPrice, currencyCode: currencyCode, locale: locale),
                period: period)
            subscriptionOffers = plan.kind == .monthly ? [] : offers
        }

        /// The pricing model of these terms (iOS 27.3): always a single price here.
        public var pricingModel: Product.SubscriptionInfo.PricingTerms.PricingModel {
            .singlePrice(
                SinglePrice(
                    billingInfo: BillingInfo(
                        price: billingPrice, displayPrice: billingDisplayPrice, period: billingPeriod),
                    commitmentInfo: commitmentInfo))
        }

        /// The offers of one type that apply with these terms (iOS 26.4).
        ///
        /// - Parameter type: The offer type.
        public subscript(offers type: Product.SubscriptionOffer.OfferType) -> [Product.SubscriptionOffer] {
            subscriptionOffers.filter { $0.type == type }
        }
    }
}
