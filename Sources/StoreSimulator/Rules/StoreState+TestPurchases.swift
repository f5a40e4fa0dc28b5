import Foundation
import StoreModels

extension StoreState {
    /// The offer StoreKit Test's options apply to a purchase made outside the app: a promotional offer of the product
    /// by identifier, applied without a signature to a customer who subscribed in the group before (as a signed one
    /// is), or an offer code's offer by reference name, for the customers its `eligibility` lists (new to the group,
    /// subscribed now, or lapsed; docs/decisions.md 107).
    ///
    /// - Throws: `invalidProductType` for an offer of a product that is not an auto-renewable subscription,
    ///   `invalidAction` for two offers, an offer the product lacks, or a customer a promotional offer is not for.
    func testOffer(_ options: TestPurchaseOptions, for product: ProductDefinition, account: String)
        throws(StoreSimulatorError) -> ProductOffer?
    {
        guard options.promotionalOfferID != nil || options.offerCodeReferenceName != nil else { return nil }
        guard options.promotionalOfferID == nil || options.offerCodeReferenceName == nil else {
            throw StoreSimulatorError(
                .invalidAction, "a purchase applies one offer: give a promotional offer or an offer code, not both")
        }
        guard let info = product.subscription else {
            throw StoreSimulatorError(
                .invalidProductType, "\(product.id) is not an auto-renewable subscription; only those have offers")
        }
        if let name = options.offerCodeReferenceName {
            guard let offer = info.offerCode(referenceName: name) else {
                let known = info.offerCodes.compactMap(\.identifier)
                throw StoreSimulatorError(
                    .invalidAction,
                    "\(product.id) has no offer code with reference name \"\(name)\""
                        + (known.isEmpty
                            ? "; it has none (add one to codeOffers in the .storekit file)"
                            : "; its offer codes are " + known.joined(separator: ", ")))
            }
            let customer: OfferCodeEligibility.Customer
            let key = Self.subscriptionKey(account: account, groupID: info.groupID)
            if let running = subscriptions[key], running.phase != .expired {
                customer = .existing
            } else if hasRecord(of: account, inGroup: info.groupID, where: { $0.state == .purchased }) {
                customer = .expired
            } else {
                customer = .new
            }
            let eligible = (offer.offerCodeEligibility ?? OfferCodeEligibility()).customers
            guard eligible.contains(customer) else {
                throw StoreSimulatorError(
                    .invalidAction,
                    "the offer code \"\(name)\" is not for \(customer.rawValue) customers of group \(info.groupID); its "
                        + "eligibility is "
                        + OfferCodeEligibility.Customer.allCases.filter { eligible.contains($0) }.map(\.rawValue)
                        .joined(separator: ", "))
            }
            return offer
        }
        let id = options.promotionalOfferID ?? ""
        guard let offer = info.promotionalOffer(identifier: id) else {
            let known = info.promotionalOffers.compactMap(\.identifier)
            throw StoreSimulatorError(
                .invalidAction,
                "\(product.id) has no promotional offer \"\(id)\""
                    + (known.isEmpty
                        ? "; it has none" : "; its promotional offers are " + known.joined(separator: ", ")))
        }
        guard hasRecord(of: account, inGroup: info.groupID, where: { $0.state == .purchased }) else {
            throw StoreSimulatorError(
                .invalidAction,
                "promotional offers are for customers who have subscribed before; \(account) never subscribed in group "
                    + info.groupID)
        }
        return offer
    }

    /// Checks the date StoreKit Test's `purchaseDate(_:renewalBehavior:)` gives a purchase made outside the app: not
    /// in the future (Apple: "Dates in the future aren't valid") nor before 1970, and, for a subscription bought in the past, not
    /// within or before the account's subscription of the group, which would give the group two histories at once; and
    /// that the renewals up to now are within ``SimulatedStore/maximumRenewalsPerAdvance``.
    func checkPurchaseDate(
        _ date: Date, of product: ProductDefinition, offer: ProductOffer?, account: String, renews: Bool, now: Date
    ) throws(StoreSimulatorError) {
        guard date.timeIntervalSince1970.isFinite, date.timeIntervalSince1970 >= 0 else {
            throw StoreSimulatorError(
                .dateOutOfRange,
                "the purchase date \(date.timeIntervalSince1970) seconds after 1970 is not a date from 1970 on")
        }
        guard date <= now else {
            throw StoreSimulatorError(
                .invalidAction,
                "the purchase date \(UTCDateTime(date)) is after the store's clock "
                    + "(\(UTCDateTime(now))); a purchase date is in the past or now")
        }
        guard date < now, let info = product.subscription else { return }
        if let running = subscriptions[Self.subscriptionKey(account: account, groupID: info.groupID)],
            running.grantsAccess || running.expiresAt > date
        {
            throw StoreSimulatorError(
                .invalidAction,
                "\(account)'s subscription in group \(info.groupID) runs until \(UTCDateTime(running.expiresAt)); "
                    + "a purchase dated \(UTCDateTime(date)) cannot start another; date it after that, or expire "
                    + "the subscription first")
        }
        guard renews else { return }
        let shortest = Self.shortestSeconds(of: info.period)
        let periods = (now.timeIntervalSince(date) / shortest).rounded(.up) + Double(offer?.numberOfPeriods ?? 0) + 2
        guard periods <= Double(SimulatedStore.maximumRenewalsPerAdvance) else {
            throw SimulatedStore.tooManyRenewals(Int(min(periods, Double(Int.max / 2))), until: now)
        }
    }

    /// Ends the auto-renewal of a subscription just bought, so that it has one period
    /// (`cancelImmediately`): the change is reported as the customer turning auto-renew off.
    mutating func cancelAtOnce(recordID: UInt64, groupID: String, account: String, at date: Date) {
        let key = Self.subscriptionKey(account: account, groupID: groupID)
        guard var subscription = subscriptions[key], subscription.latestRecordID == recordID,
            subscription.autoRenew
        else { return }
        subscription.autoRenew = false
        records[recordID]?.autoRenewEnabled = false
        subscriptions[key] = subscription
        report(.autoRenewChanged(enabled: false), at: date, of: subscription)
    }

    /// Handles every event of an account's subscription in a group that falls due up to `now`, each at the instant it
    /// falls due, as moving the clock would have: the renewals (or billing retry, or expiry) of a subscription bought
    /// in the past.
    mutating func catchUp(groupID: String, account: String, until now: Date, into outcome: inout SubscriptionOutcome) {
        let key = Self.subscriptionKey(account: account, groupID: groupID)
        // Each event moves the subscription's next event later or ends it; the count only guards against a loop.
        var steps = 0
        while var subscription = subscriptions[key], let due = subscription.nextEventDate, due <= now,
            steps < 4 * SimulatedStore.maximumRenewalsPerAdvance
        {
            processDue(&subscription, at: due, into: &outcome)
            subscriptions[key] = subscription
            steps += 1
        }
    }
}

extension StoreState {
    /// The billing plan StoreKit Test's options ask of a purchase made outside the app, refused as a purchase in the
    /// app refuses it (`billingPlan(_:of:withOffer:)`; docs/decisions.md 111).
    ///
    /// - Throws: `invalidProductType` for a plan of a product that is not an auto-renewable subscription,
    ///   `invalidAction` for a plan the product does not offer, or a monthly plan with an offer.
    static func testBillingPlan(_ options: TestPurchaseOptions, for product: ProductDefinition, offer: ProductOffer?)
        throws(StoreSimulatorError) -> BillingPlan.Kind?
    {
        guard let kind = options.billingPlan else { return nil }
        if case .failure(let refusal) = billingPlan(kind, of: product, withOffer: offer != nil) {
            throw StoreSimulatorError(
                refusal == .notASubscription ? .invalidProductType : .invalidAction,
                refusal.message(product: product, kind: kind))
        }
        return kind
    }
}
