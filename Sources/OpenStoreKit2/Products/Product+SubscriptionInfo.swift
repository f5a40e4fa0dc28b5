import Foundation
import StoreModels

extension Product {
    /// The details of an auto-renewable subscription: its group, period, offers, and where the customer stands.
    public struct SubscriptionInfo: Equatable, Hashable, Sendable {
        /// The introductory offer, if the product has one.
        public let introductoryOffer: Product.SubscriptionOffer?
        /// The promotional offers.
        public let promotionalOffers: [Product.SubscriptionOffer]
        /// The win-back offers of the subscription, whether or not the customer may redeem them (iOS 18): the
        /// renewal info's ``RenewalInfo/eligibleWinBackOfferIDs`` says which the customer may.
        public let winBackOffers: [Product.SubscriptionOffer]
        /// The ways to pay for the subscription, one per billing plan it offers (iOS 26.4; docs/decisions.md 109).
        public let pricingTerms: [Product.SubscriptionInfo.PricingTerms]
        /// The subscription group's identifier.
        public let subscriptionGroupID: String
        /// The length of one period.
        public let subscriptionPeriod: Product.SubscriptionPeriod
        /// The product's level in its group (1 is the highest).
        public let groupLevel: Int
        let client: StoreKitClient

        init(
            _ info: StoreModels.SubscriptionInfo, price: Decimal, currencyCode: String, locale: Locale,
            client: StoreKitClient
        ) {
            introductoryOffer = info.introductoryOffer.map {
                SubscriptionOffer($0, currencyCode: currencyCode, locale: locale)
            }
            promotionalOffers = info.promotionalOffers.map {
                SubscriptionOffer($0, currencyCode: currencyCode, locale: locale)
            }
            winBackOffers = info.winBackOffers.map {
                SubscriptionOffer($0, currencyCode: currencyCode, locale: locale)
            }
            subscriptionGroupID = info.groupID
            subscriptionPeriod = SubscriptionPeriod(info.period)
            let offers = [introductoryOffer].compactMap { $0 } + promotionalOffers + winBackOffers
            pricingTerms = info.plans(price: price).map { [subscriptionPeriod] plan in
                PricingTerms(
                    plan, period: subscriptionPeriod, offers: offers, currencyCode: currencyCode, locale: locale)
            }
            groupLevel = info.groupLevel
            self.client = client
        }

        /// The group's display name: the simulated catalog names groups by identifier.
        public var groupDisplayName: String { subscriptionGroupID }

        /// Whether the customer may still have the group's introductory offer: they never subscribed in the group.
        public var isEligibleForIntroOffer: Bool {
            get async { await client.isEligibleForIntroOffer(groupID: subscriptionGroupID) }
        }

        /// Whether the bound account may have the introductory offer of a group.
        ///
        /// - Parameter groupID: The subscription group.
        /// - Returns: Whether the account never subscribed in it.
        public static func isEligibleForIntroOffer(for groupID: String) async -> Bool {
            await StoreKitEnvironment.current.isEligibleForIntroOffer(groupID: groupID)
        }

        /// The statuses of the customer's subscription in the group (``status(for:)``).
        public var status: [Product.SubscriptionInfo.Status] {
            get async throws { try await client.statuses(groupID: subscriptionGroupID) }
        }

        /// The statuses of the bound account's subscription in a group: one per subscription the account has had in
        /// it, empty if none.
        ///
        /// - Parameter groupID: The subscription group.
        /// - Returns: The statuses.
        /// - Throws: ``StoreKitError`` when a test simulates a failure (`.subscriptionStatus`).
        public static func status(for groupID: String) async throws -> [Product.SubscriptionInfo.Status] {
            try await StoreKitEnvironment.current.statuses(groupID: groupID)
        }

        /// The status of the subscription that a transaction belongs to (iOS 18.4): the status of its group whose
        /// transaction has the same original transaction, or nil when the transaction is not the customer's or not an
        /// auto-renewable subscription's.
        ///
        /// - Parameter transactionID: The identifier of any transaction of the subscription.
        /// - Returns: The subscription's status, or nil.
        public static func status(transactionID: UInt64) async throws -> SubscriptionStatus? {
            try await StoreKitEnvironment.current.status(transactionID: transactionID)
        }

        /// Two infos are equal when they describe the same subscription.
        public static func == (lhs: SubscriptionInfo, rhs: SubscriptionInfo) -> Bool {
            lhs.introductoryOffer == rhs.introductoryOffer && lhs.promotionalOffers == rhs.promotionalOffers
                && lhs.winBackOffers == rhs.winBackOffers && lhs.pricingTerms == rhs.pricingTerms
                && lhs.subscriptionGroupID == rhs.subscriptionGroupID
                && lhs.subscriptionPeriod == rhs.subscriptionPeriod && lhs.groupLevel == rhs.groupLevel
        }

        /// Hashes the group and period.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(subscriptionGroupID)
            hasher.combine(subscriptionPeriod)
        }
    }
}
