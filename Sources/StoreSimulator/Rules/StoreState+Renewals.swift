import Foundation
import StoreModels

/// What handling subscriptions produced: events for the caller, and transactions to tell devices about.
struct SubscriptionOutcome {
    var events: [SubscriptionEvent] = []
    var deliveries: [(deviceID: String, transaction: DeviceTransaction)] = []
}

extension StoreState {
    /// Handles a subscription that fell due at `due`: renews, fails to renew, retries billing, ends a grace period or
    /// billing retry, or expires it.
    mutating func processDue(
        slot: Int,
        at due: Date,
        into outcome: inout SubscriptionOutcome
    ) {
        guard var subscription = subscriptions[slot: slot] else { return }
        guard records[subscription.latestRecordID] != nil else {
            // The subscription's transactions were deleted: it is gone.
            subscriptions[slot: slot] = nil
            return
        }
        processDue(&subscription, at: due, into: &outcome)
        subscriptions[slot: slot] = subscription
    }

    /// Handles a subscription's next event, due at `due`, as ``processDue(slot:at:into:)`` does; the caller writes
    /// the subscription back.
    mutating func processDue(
        _ subscription: inout SubscriptionState,
        at due: Date,
        into outcome: inout SubscriptionOutcome
    ) {
        let deviceIDs = devices.ids(of: subscription.account)
        switch subscription.phase {
        case .active:
            guard subscription.expiresAt <= due else { break }
            reachEndOfPeriod(&subscription, at: due, deviceIDs: deviceIDs, into: &outcome)
        case .gracePeriod, .billingRetry:
            if let attempt = subscription.nextRetryAttemptAt, attempt <= due {
                retryBilling(&subscription, at: due, deviceIDs: deviceIDs, into: &outcome)
            } else if subscription.phase == .gracePeriod, let end = subscription.gracePeriodEndsAt, end <= due {
                subscription.phase = .billingRetry
                outcome.events.append(event(.gracePeriodEnded, subscription, at: due))
                report(.gracePeriodEnded, at: due, of: subscription)
            } else if let end = subscription.billingRetryEndsAt, end <= due {
                expire(&subscription, at: due, reason: .billingRetryEnded, into: &outcome)
            }
        case .expired:
            break
        }
    }

    /// The period ended: the subscription renews, fails to renew with a billing issue, or expires.
    mutating func reachEndOfPeriod(
        _ subscription: inout SubscriptionState,
        at date: Date,
        deviceIDs: [String],
        into outcome: inout SubscriptionOutcome
    ) {
        if !subscription.autoRenew {
            expire(&subscription, at: date, reason: .autoRenewDisabled, into: &outcome)
        } else if subscription.pendingPriceIncrease {
            expire(&subscription, at: date, reason: .priceIncreaseNotConsented, into: &outcome)
        } else if settings.billingRetryOnRenewal {
            enterBillingRetry(&subscription, at: date, into: &outcome)
        } else {
            renew(
                &subscription,
                chargedAt: date,
                periodStart: subscription.expiresAt,
                restartsPeriods: false,
                kind: .renewed,
                deviceIDs: deviceIDs,
                into: &outcome
            )
        }
    }

    /// A renewal failed: billing retry starts, with a grace period when the settings enable one.
    mutating func enterBillingRetry(
        _ subscription: inout SubscriptionState,
        at date: Date,
        into outcome: inout SubscriptionOutcome
    ) {
        let rate = TimeRate(rawValue: settings.timeRate) ?? .realTime
        let period = renewalPeriod(of: subscription)
        let withGrace = settings.billingGracePeriodEnabled
        subscription.phase = withGrace ? .gracePeriod : .billingRetry
        subscription.billingIssueStartedAt = date
        subscription.gracePeriodEndsAt = withGrace ? date.addingTimeInterval(rate.gracePeriod(for: period)) : nil
        let retryEnd = date.addingTimeInterval(rate.billingRetryPeriod(for: period))
        subscription.billingRetryEndsAt = retryEnd
        subscription.failedRetryAttempts = 0
        subscription.nextRetryAttemptAt = nextRetryAttempt(of: subscription, rate: rate, period: period)
        records[subscription.latestRecordID]?.hasPurchaseIssue = true
        outcome.events.append(event(.renewalFailed, subscription, at: date))
        if withGrace { outcome.events.append(event(.gracePeriodStarted, subscription, at: date)) }
        report(.renewalFailed(gracePeriod: withGrace), at: date, of: subscription)
    }

    /// Billing is retried: it succeeds once renewals no longer fail (`billingRetryOnRenewal` turned off), and fails
    /// again while they do.
    mutating func retryBilling(
        _ subscription: inout SubscriptionState,
        at date: Date,
        deviceIDs: [String],
        into outcome: inout SubscriptionOutcome
    ) {
        guard settings.billingRetryOnRenewal else {
            recover(&subscription, at: date, deviceIDs: deviceIDs, into: &outcome)
            return
        }
        subscription.failedRetryAttempts = Self.incremented(subscription.failedRetryAttempts)
        let rate = TimeRate(rawValue: settings.timeRate) ?? .realTime
        subscription.nextRetryAttemptAt = nextRetryAttempt(
            of: subscription, rate: rate, period: renewalPeriod(of: subscription))
        outcome.events.append(event(.billingRetryFailed, subscription, at: date))
        report(.billingRetryFailed, at: date, of: subscription)
    }

    /// Billing succeeded after a failed renewal. Recovered in the grace period, the new period starts when the old
    /// one ended (the renewal date does not move); recovered later, it starts now.
    mutating func recover(
        _ subscription: inout SubscriptionState,
        at date: Date,
        deviceIDs: [String],
        into outcome: inout SubscriptionOutcome
    ) {
        let inGrace = subscription.phase == .gracePeriod
        renew(
            &subscription,
            chargedAt: date,
            periodStart: inGrace ? subscription.expiresAt : date,
            restartsPeriods: !inGrace,
            kind: .recovered,
            deviceIDs: deviceIDs,
            into: &outcome
        )
    }

    /// Charges the next period: a new purchased transaction in the subscription's chain, told to every device of the
    /// account. A pending downgrade takes effect; periods left of an offer are flagged as such.
    mutating func renew(
        _ subscription: inout SubscriptionState,
        chargedAt date: Date,
        periodStart: Date,
        restartsPeriods: Bool,
        kind: SubscriptionEvent.Kind,
        deviceIDs: [String],
        into outcome: inout SubscriptionOutcome
    ) {
        guard let latest = records[subscription.latestRecordID] else { return }
        let productID = subscription.renewalProductID
        guard let product = configuration.catalog.product(productID), let info = product.subscription else {
            expire(&subscription, at: date, reason: .productUnavailable, into: &outcome)
            return
        }
        let changesProduct = productID != subscription.productID
        // An offer redeemed for the product renewed to stays: it begins with this renewal.
        if changesProduct, subscription.offer.map({ info.promotionalOffers.contains($0) }) != true {
            subscription.offer = nil
            subscription.offerPeriodsLeft = 0
        }
        if changesProduct || restartsPeriods { subscription.periodAnchor = nil }
        var offer: ProductOffer?
        if let current = subscription.offer, subscription.offerPeriodsLeft > 0 {
            offer = current
            subscription.offerPeriodsLeft -= 1
        } else {
            subscription.offer = nil
            subscription.offerPeriodsLeft = 0
        }
        // A subscription billed monthly renews a month at a time while the product it renews to offers the plan
        // (decision 109).
        let monthly =
            latest.billingPlan == .monthly && offer == nil && info.plan(.monthly, price: product.price) != nil
        let billingPeriod = monthly ? SubscriptionPeriod(value: 1, unit: .month) : info.period
        var expiration: Date
        if let offer {
            expiration = offer.period.advance(periodStart)
            subscription.periodAnchor = nil
        } else {
            if subscription.periodAnchor == nil {
                let regular =
                    !restartsPeriods && !changesProduct && !latest.isTrialPeriod && !latest.isInIntroOfferPeriod
                    && latest.promotionalOfferID == nil && latest.expirationDate == periodStart
                    && billingPeriod.advance(latest.purchaseDate) == periodStart
                subscription.periodAnchor = regular ? latest.purchaseDate : periodStart
                subscription.periodsSinceAnchor = regular ? 1 : 0
            }
            subscription.periodsSinceAnchor = Self.incremented(subscription.periodsSinceAnchor)
            expiration = billingPeriod.advance(
                subscription.periodAnchor ?? periodStart, by: subscription.periodsSinceAnchor)
        }
        if expiration <= periodStart {
            expiration = periodStart.addingTimeInterval(billingPeriod.approximateSeconds)
        }

        var record = TransactionRecord(
            id: allocateTransactionID(),
            originalID: subscription.originalID,
            account: subscription.account,
            productID: productID,
            productType: .autoRenewableSubscription,
            quantity: latest.quantity,
            state: .purchased,
            purchaseDate: date,
            originalPurchaseDate: latest.originalPurchaseDate,
            expirationDate: expiration,
            webOrderLineItemID: allocateWebOrderLineItemID(),
            isTrialPeriod: offer?.paymentMode == .freeTrial,
            isInIntroOfferPeriod: offer?.kind == .introductory && offer?.paymentMode != .freeTrial,
            promotionalOfferID: offer?.kind == .introductory ? nil : offer?.identifier,
            applicationUsername: latest.applicationUsername,
            autoRenewEnabled: true
        )
        record.isRenewal = true
        if monthly {
            record.billingPlan = .monthly
            record.commitment = Self.nextCommitment(
                after: latest, anchor: subscription.periodAnchor ?? periodStart,
                periodsBefore: max(0, subscription.periodsSinceAnchor - 1))
        } else {
            record.billingPlan = info.billingPlans.isEmpty ? nil : .upFront
        }
        if latest.hasPurchaseIssue || latest.isPendingPriceIncreaseConsent {
            records[latest.id]?.hasPurchaseIssue = false
            records[latest.id]?.isPendingPriceIncreaseConsent = false
        }
        records[record.id] = record

        subscription.productID = productID
        subscription.latestRecordID = record.id
        subscription.expiresAt = expiration
        subscription.phase = .active
        subscription.autoRenew = true
        subscription.pendingPriceIncrease = false
        subscription.gracePeriodEndsAt = nil
        subscription.billingRetryEndsAt = nil
        subscription.billingIssueStartedAt = nil
        subscription.nextRetryAttemptAt = nil
        subscription.failedRetryAttempts = 0
        subscription.periodsPaid = Self.incremented(subscription.periodsPaid)

        outcome.events.append(event(kind, subscription, at: date, transactionID: record.id))
        report(kind == .recovered ? .billingRecovered : .renewed, at: date, of: subscription)
        shareWithFamily(record.id, as: .renewed, at: date)
        deliver(record, transactionDate: date, to: deviceIDs, into: &outcome)
    }

    /// Ends a subscription now.
    mutating func expire(
        _ subscription: inout SubscriptionState,
        at date: Date,
        reason: SubscriptionEvent.ExpirationReason,
        into outcome: inout SubscriptionOutcome
    ) {
        subscription.phase = .expired
        subscription.nextRetryAttemptAt = nil
        subscription.gracePeriodEndsAt = nil
        subscription.billingRetryEndsAt = nil
        subscription.pendingPriceIncrease = false
        if reason == .expiredByTest || reason == .refunded {
            subscription.autoRenew = false
            if subscription.expiresAt > date { subscription.expiresAt = date }
        }
        if let id = records[subscription.latestRecordID]?.id {
            records[id]?.hasPurchaseIssue = false
            records[id]?.isPendingPriceIncreaseConsent = false
            if reason == .expiredByTest {
                records[id]?.autoRenewEnabled = false
                if let end = records[id]?.expirationDate, end > date { records[id]?.expirationDate = date }
                mirrorShares(of: id)
            }
        }
        outcome.events.append(event(.expired(reason), subscription, at: date))
        if reason != .refunded { report(.expired(reason), at: date, of: subscription) }
    }

    /// Puts a purchased transaction in the queue of each device and lines up the update for it.
    ///
    /// The device transaction has the record's identifier unless `transactionID` names another (a purchase that granted
    /// an earlier record again, such as an owned non-consumable), and the payment is for the record's product unless
    /// `productID` names the one bought (a crossgrade or downgrade granted by the running subscription's record).
    mutating func deliver(
        _ record: TransactionRecord,
        transactionID: UInt64? = nil,
        productID: String? = nil,
        transactionDate: Date,
        to deviceIDs: [String],
        into outcome: inout SubscriptionOutcome
    ) {
        guard !deviceIDs.isEmpty else { return }
        var transaction = DeviceTransaction(
            id: transactionID ?? record.id,
            payment: PaymentRequest(
                productID: productID ?? record.productID,
                quantity: record.quantity,
                applicationUsername: record.applicationUsername
            ),
            state: .purchased
        )
        transaction.transactionDate = transactionDate
        transaction.recordID = record.id
        if record.originalID != record.id { transaction.originalID = record.originalID }
        var reached = 0
        for deviceID in deviceIDs {
            guard let device = devices[deviceID] else { continue }
            device.append(transaction)
            outcome.deliveries.append((deviceID, transaction))
            reached += 1
        }
        if reached > 1, record.productType == .consumable || record.state == .failed {
            sharedRecordIDs.insert(record.id)
        }
    }

    /// At most how many renewals and recoveries moving the clock to `limit` would produce, with the settings as they
    /// are: for each subscription that can renew by then, its next event and one more for every shortest period (of
    /// its product, the product it renews to, its offer) that fits before `limit`. Counts without allocating.
    func renewalBound(until limit: Date) -> Int {
        let retrying = settings.billingRetryOnRenewal
        var total = 0
        subscriptions.visitDue(notAfter: limit) { subscription in
            guard total <= Int.max / 2, let next = subscription.nextEventDate, next <= limit else { return }
            switch subscription.phase {
            case .active:
                // Auto-renew off or a price increase not consented to expires it; failing renewals never renew.
                guard subscription.autoRenew, !subscription.pendingPriceIncrease, !retrying else { return }
            case .gracePeriod, .billingRetry:
                guard !retrying, subscription.nextRetryAttemptAt != nil else { return }
            case .expired:
                return
            }
            var shortest = Double.infinity
            for id in [subscription.productID, subscription.renewalProductID] {
                if let info = configuration.catalog.product(id)?.subscription {
                    shortest = min(shortest, Self.shortestSeconds(of: info.period))
                    if info.billingPlans.contains(where: { $0.kind == .monthly }) {
                        shortest = min(shortest, Self.shortestSeconds(of: SubscriptionPeriod(value: 1, unit: .month)))
                    }
                }
            }
            if let offer = subscription.offer { shortest = min(shortest, Self.shortestSeconds(of: offer.period)) }
            let span = limit.timeIntervalSince(next)
            let more = shortest.isFinite && shortest > 0 && span > 0 ? (span / shortest).rounded(.down) : 0
            let cap = Int.max / 4
            total += 1 + (more.isFinite && more < Double(cap) ? Int(more) : cap)
        }
        return total
    }

    /// `count` plus one, or `count` at `Int.max`: a count of periods or attempts never traps, whatever a state file
    /// held (opening checks the counts, so this bound is never reached in practice).
    static func incremented(_ count: Int) -> Int {
        count == .max ? count : count + 1
    }

    /// The shortest a period can last: 28 days for a month, 365 for a year.
    static func shortestSeconds(of period: SubscriptionPeriod) -> Double {
        let day = 86_400.0
        let value = Double(max(1, period.value))
        switch period.unit {
        case .day: return value * day
        case .week: return value * 7 * day
        case .month: return value * 28 * day
        case .year: return value * 365 * day
        }
    }

    /// The subscription period the next renewal would charge.
    func renewalPeriod(of subscription: SubscriptionState) -> SubscriptionPeriod {
        let catalog = configuration.catalog
        return catalog.product(subscription.renewalProductID)?.subscription?.period
            ?? catalog.product(subscription.productID)?.subscription?.period
            ?? SubscriptionPeriod(value: 1, unit: .month)
    }

    private func nextRetryAttempt(of subscription: SubscriptionState, rate: TimeRate, period: SubscriptionPeriod)
        -> Date?
    {
        guard let start = subscription.billingIssueStartedAt, let end = subscription.billingRetryEndsAt else {
            return nil
        }
        let offsets = rate.billingRetryAttemptOffsets(for: period)
        guard subscription.failedRetryAttempts < offsets.count else { return nil }
        let attempt = start.addingTimeInterval(offsets[subscription.failedRetryAttempts])
        return attempt < end ? attempt : nil
    }

    func event(
        _ kind: SubscriptionEvent.Kind,
        _ subscription: SubscriptionState,
        at date: Date,
        transactionID: UInt64? = nil
    ) -> SubscriptionEvent {
        SubscriptionEvent(
            kind: kind,
            date: date,
            account: subscription.account,
            groupID: subscription.groupID,
            productID: subscription.productID,
            originalID: subscription.originalID,
            transactionID: transactionID
        )
    }
}
