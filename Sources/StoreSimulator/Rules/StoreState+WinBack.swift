import Foundation
import StoreModels

extension StoreState {
    /// The win-back offers an account may redeem in a subscription group now, best first: the one rule behind a
    /// purchase with a win-back offer and the renewal info's `eligibleWinBackOfferIds` (docs/decisions.md 96).
    func eligibleWinBackOffers(account: String, groupID: String, now: Date) -> [ProductOffer] {
        guard let subscription = subscriptions[Self.subscriptionKey(account: account, groupID: groupID)] else {
            return []
        }
        return Self.eligibleWinBackOffers(
            of: subscription, history: records(of: account).filter { $0.originalID == subscription.originalID },
            catalog: configuration.catalog, now: now)
    }

    /// The win-back offers of a subscription's group the subscriber may redeem at `now`, best first.
    ///
    /// A customer is eligible only once the subscription lapsed: expired, not active, in a billing grace period or
    /// billing retry. Each offer's conditions then apply: the months the customer paid for (free trials and refunded
    /// periods do not count), the whole months since the subscription lapsed, and the whole months since the
    /// customer last redeemed the offer. The best offer comes first: high priority before normal, then the lowest
    /// price per month of the offer, then the longest offer, then the configuration's order.
    ///
    /// - Parameters:
    ///   - subscription: The account's subscription in the group.
    ///   - history: The records of the subscription (its original transaction's), oldest first.
    ///   - catalog: The catalog whose products' win-back offers count.
    ///   - now: The store's clock.
    /// - Returns: The offers, best first; empty when the customer may redeem none.
    static func eligibleWinBackOffers(
        of subscription: SubscriptionState, history: [TransactionRecord], catalog: StoreCatalog, now: Date
    ) -> [ProductOffer] {
        guard subscription.phase == .expired else { return [] }
        let own = history.filter { $0.state == .purchased && !$0.isFamilyShared }
        guard !own.isEmpty else { return [] }
        var lapsedAt = subscription.expiresAt
        if let cancelled = own.last(where: { $0.id == subscription.latestRecordID })?.cancellationDate {
            lapsedAt = min(lapsedAt, cancelled)
        }
        guard lapsedAt <= now else { return [] }
        let monthsSinceLapse = wholeMonths(from: lapsedAt, to: now)
        let paidMonths = own.reduce(0.0) { total, record in
            guard !record.isTrialPeriod, record.cancellationDate == nil || record.isUpgraded,
                let expiration = record.expirationDate
            else { return total }
            let end = min(record.isUpgraded ? (record.cancellationDate ?? expiration) : expiration, now)
            return total + months(from: record.purchaseDate, to: end)
        }
        let offers = catalog.subscriptions(inGroup: subscription.groupID).flatMap {
            $0.subscription?.winBackOffers ?? []
        }
        let eligible = offers.enumerated().filter { _, offer in
            let rules = offer.winBackEligibility ?? WinBackEligibility()
            if let minimum = rules.paidSubscriptionDurationInMonths, paidMonths < Double(minimum) { return false }
            if let minimum = rules.minimumMonthsSinceLastSubscribed, monthsSinceLapse < minimum { return false }
            if let maximum = rules.maximumMonthsSinceLastSubscribed, monthsSinceLapse > maximum { return false }
            if let wait = rules.waitBetweenOffersInMonths,
                let redeemed = own.last(where: { $0.promotionalOfferID == offer.identifier && $0.isRenewal != true }),
                wholeMonths(from: redeemed.purchaseDate, to: now) < wait
            {
                return false
            }
            return true
        }
        return eligible.sorted { lhs, rhs in
            let left = rank(lhs.element)
            let right = rank(rhs.element)
            if left.priority != right.priority { return left.priority < right.priority }
            if left.monthlyPrice != right.monthlyPrice { return left.monthlyPrice < right.monthlyPrice }
            if left.months != right.months { return left.months > right.months }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }

    /// Checks a win-back offer a payment names: the product has it and the account may redeem it now.
    func validateWinBackOffer(_ offerID: String, for product: ProductDefinition, account: String, now: Date)
        -> Result<ProductOffer, StoreFailure>
    {
        guard let subscription = product.subscription, let offer = subscription.winBackOffer(identifier: offerID) else {
            return .failure(StoreFailure(.invalidOfferIdentifier, "\(product.id) has no win-back offer \"\(offerID)\""))
        }
        let eligible = eligibleWinBackOffers(account: account, groupID: subscription.groupID, now: now)
        guard eligible.contains(offer) else {
            return .failure(
                StoreFailure(
                    .ineligibleForOffer,
                    "win-back offer \"\(offerID)\" is for customers whose subscription to group \(subscription.groupID) "
                        + "lapsed, within the offer's conditions; account \(account) is not eligible now"))
        }
        return .success(offer)
    }

    /// How an offer ranks: its priority (high first), price per month and length in months.
    private static func rank(_ offer: ProductOffer) -> (priority: Int, monthlyPrice: Double, months: Double) {
        let priority = offer.winBackEligibility?.priority == .high ? 0 : 1
        let periodMonths = months(in: offer.period)
        let price =
            offer.paymentMode == .freeTrial ? 0 : NSDecimalNumber(decimal: offer.price).doubleValue / periodMonths
        let periods = offer.paymentMode == .payUpFront ? 1 : max(offer.numberOfPeriods, 1)
        return (priority, price, periodMonths * Double(periods))
    }

    /// A period in months, a day counting as a thirtieth of a month.
    private static func months(in period: SubscriptionPeriod) -> Double {
        let value = Double(max(period.value, 1))
        return switch period.unit {
        case .day: value / 30
        case .week: value * 7 / 30
        case .month: value
        case .year: value * 12
        }
    }

    /// The calendar months from one date to another (UTC), whole months plus the days left over as thirtieths.
    private static func months(from start: Date, to end: Date) -> Double {
        guard end > start else { return 0 }
        let parts = calendar.dateComponents([.month, .day, .hour], from: start, to: end)
        return Double(parts.month ?? 0) + (Double(parts.day ?? 0) + Double(parts.hour ?? 0) / 24) / 30
    }

    /// The whole calendar months from one date to another (UTC); zero when `end` is not after `start`.
    private static func wholeMonths(from start: Date, to end: Date) -> Int {
        guard end > start else { return 0 }
        return calendar.dateComponents([.month], from: start, to: end).month ?? 0
    }

    private static var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar
    }
}
