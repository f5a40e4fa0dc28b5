import Foundation
import ReceiptKit
import StoreModels
import Synchronization

extension StoreState {
    /// Decides the purchasing transaction at a position of a device's queue, in place; it no longer needs the
    /// storefront it started in.
    mutating func decide(at index: Int, of device: Device, now: Date, appBundleID: String) {
        decide(
            &device.queue[index].transaction, deviceID: device.id, account: device.account, now: now,
            appBundleID: appBundleID)
        device.queue[index].startedIn = nil
    }

    /// The record a decided transaction reports when it was purchased: what a front end shows of the purchase. `nil`
    /// for a failed or deferred payment.
    func record(reportedBy transaction: DeviceTransaction) -> TransactionRecord? {
        guard transaction.state == .purchased, let id = transaction.recordID else { return nil }
        return records[id]
    }

    /// Fails the purchasing transaction at a position of a device's queue because the storefront changed while it
    /// was in progress.
    mutating func failForStorefront(at index: Int, of device: Device, _ storefront: Storefront) {
        device.queue[index].transaction.state = .failed
        device.queue[index].transaction.failure = StoreFailure(
            .storeProductNotAvailable,
            "the storefront changed to \(storefront) while the purchase was in progress"
        )
        device.queue[index].startedIn = nil
    }

    /// Drops a finished transaction's record from the history if it was a consumable or failed purchase (for
    /// `.receiptOnly`) and no other unfinished transaction reports it.
    mutating func dropFinishedRecord(_ recordID: UInt64) {
        if !records.isComplete { records.loadAccount(holding: recordID) }
        guard let position = records.index(forKey: recordID), records.isDroppable(at: position) else { return }
        if !sharedRecordIDs.isEmpty, sharedRecordIDs.contains(recordID) {
            let reported = devices.holdingTransactions.contains { device in
                device.queue.contains { $0.transaction.recordID == recordID }
                    || device.otherDevicePurchases.contains { $0.recordID == recordID }
            }
            guard !reported else { return }
            sharedRecordIDs.remove(recordID)
        }
        records.remove(at: position)
    }

    /// Removes the unfinished entries that report a transaction from every device that holds them
    /// (``SimulatedStore/finishTransaction(_:)``): the queue's entries but restored copies and entries StoreKit does not
    /// let an app finish (`.purchasing`, `.deferred`), and the purchases of it made on another device. Returns the
    /// identifiers removed from each device's queue, by device, in device order, for the devices to hear.
    mutating func finishEverywhere(_ id: UInt64) throws(StoreSimulatorError) -> [(deviceID: String, ids: [UInt64])] {
        guard records[id] != nil else { throw SimulatedStore.unknownTransaction(id) }
        var removed: [(deviceID: String, ids: [UInt64])] = []
        var held = false
        for device in devices.holdingTransactions.sorted(by: { $0.id < $1.id }) {
            let finished = device.unfinished.filter {
                $0.recordID == id && $0.state != .restored && $0.state != .purchasing && $0.state != .deferred
            }.map(\.id)
            if !finished.isEmpty {
                device.removeAll { finished.contains($0.id) }
                removed.append((device.id, finished))
                held = true
            }
            if device.otherDevicePurchases.contains(where: { $0.recordID == id }) {
                device.otherDevicePurchases.removeAll { $0.recordID == id }
                held = true
            }
        }
        if held, retention == .receiptOnly { dropFinishedRecord(id) }
        return removed
    }

    /// Decides a purchasing transaction: applies every check, setting and scripted outcome, in this order: payments
    /// allowed, product known, quantity, request data, simulated purchase error, offer, scripted outcome, failing
    /// transactions, interrupted purchases, Ask to Buy; then grants the purchase. The offer is a promotional offer's
    /// signed discount, a promotional offer signed as a JWS or a win-back offer
    /// (``eligibleWinBackOffers(account:groupID:now:)``); a signed introductory offer eligibility JWS decides whether
    /// the introductory offer applies.
    mutating func decide(
        _ transaction: inout DeviceTransaction, deviceID: String, account: String, now: Date, appBundleID: String
    ) {
        let request = transaction.payment
        func reject(_ code: StoreErrorCode, _ message: String) {
            transaction.state = .failed
            transaction.failure = StoreFailure(code, message)
        }
        guard paymentsAllowed(account: account) else {
            return reject(.paymentNotAllowed, "this device may not make payments")
        }
        guard let product = product(request.productID) else {
            return reject(.paymentInvalid, "no product has identifier \(request.productID) in the store's catalog")
        }
        guard PaymentRequest.quantityRange.contains(request.quantity) else {
            return reject(.paymentInvalid, "quantity \(request.quantity) is outside 1...10")
        }
        guard !request.hasRequestData else {
            return reject(.unauthorizedRequestData, "payments may not carry requestData")
        }
        // A purchase that is not granted is recorded as it stands (failed or deferred); a granted one gets its record
        // from `grant`, so this one is only built when needed.
        let recordID = transaction.id
        func unsettledRecord() -> TransactionRecord {
            TransactionRecord(
                id: recordID,
                account: account,
                productID: product.id,
                productType: product.type,
                quantity: request.quantity,
                state: .failed,
                purchaseDate: now,
                applicationUsername: request.applicationUsername,
                deviceID: deviceID
            )
        }
        transaction.recordID = recordID
        func fail(_ failure: StoreFailure, issue: Bool = false) {
            var record = unsettledRecord()
            record.failure = failure
            record.hasPurchaseIssue = issue
            records[record.id] = record
            transaction.state = .failed
            transaction.failure = failure
        }
        if let failure = settings.simulatedErrors[.purchase] { return fail(failure) }
        if case .failure(let failure) = Self.validateBillingPlan(request, for: product) { return fail(failure) }
        var offer: ProductOffer?
        if let discount = request.discount {
            switch validate(
                discount, for: product, applicationUsername: request.applicationUsername, appBundleID: appBundleID,
                account: account, now: now)
            {
            case .success(let valid): offer = valid
            case .failure(let failure): return fail(failure)
            }
        }
        if let winBackOfferID = request.winBackOfferID {
            guard request.discount == nil else {
                return fail(
                    StoreFailure(
                        .invalidOfferIdentifier, "a payment applies one offer: a promotional offer or a win-back offer")
                )
            }
            switch validateWinBackOffer(winBackOfferID, for: product, account: account, now: now) {
            case .success(let valid): offer = valid
            case .failure(let failure): return fail(failure)
            }
        }
        if let signed = request.signedPromotionalOffer {
            guard request.discount == nil, request.winBackOfferID == nil else {
                return fail(
                    StoreFailure(
                        .invalidOfferIdentifier, "a payment applies one offer: a promotional offer or a win-back offer")
                )
            }
            switch validate(signed, for: product, account: account, appBundleID: appBundleID, now: now) {
            case .success(let valid): offer = valid
            case .failure(let failure): return fail(failure)
            }
        }
        var introductoryOfferAllowed: Bool?
        if let eligibilityJWS = request.introductoryOfferEligibilityJWS {
            switch verifySignedRequest(
                eligibilityJWS, audience: .introductoryOfferEligibility, productID: product.id, account: account,
                appBundleID: appBundleID, now: now)
            {
            case .success(let verified): introductoryOfferAllowed = verified.allowIntroductoryOffer
            case .failure(let failure): return fail(failure)
            }
        }
        let outcome: ScriptedOutcome
        if let scripted = takeScriptedOutcome(for: product.id) {
            outcome = scripted
        } else if settings.failTransactionsEnabled {
            outcome = .fail(StoreFailure(settings.failureError, "transactions fail (failTransactionsEnabled)"))
        } else if settings.interruptedPurchasesEnabled {
            outcome = .interrupt
        } else if askToBuyEnabled(account: account) || request.simulatesAskToBuy {
            outcome = .askToBuy
        } else {
            outcome = .succeed
        }
        switch outcome {
        case .fail(let failure):
            fail(failure)
        case .interrupt:
            fail(
                StoreFailure(.paymentCancelled, "the purchase was interrupted; resolve the issue to complete it"),
                issue: true
            )
        case .askToBuy:
            var record = unsettledRecord()
            record.state = .deferred
            record.pendingAskToBuyConfirmation = true
            records[record.id] = record
            transaction.state = .deferred
        case .succeed:
            transaction.recordID = grant(
                recordID: transaction.id,
                request: request,
                product: product,
                account: account,
                deviceID: deviceID,
                offer: offer,
                introductoryOfferAllowed: introductoryOfferAllowed,
                now: now
            )
            transaction.state = .purchased
            transaction.transactionDate = now
        }
    }

    /// Checks a promotional offer: the product has it, its parameters and signature are present, the signature
    /// verifies with the subscription-offer key of its key identifier when the settings have that key, it is less than
    /// a day old and its nonce unused, and the account is eligible (has subscribed in the group before).
    mutating func validate(
        _ discount: DiscountRequest, for product: ProductDefinition, applicationUsername: String?,
        appBundleID: String, account: String, now: Date
    ) -> Result<ProductOffer, StoreFailure> {
        guard let subscription = product.subscription,
            let offer = subscription.promotionalOffer(identifier: discount.offerID)
        else {
            if product.subscription?.winBackOffer(identifier: discount.offerID) != nil {
                // Win-back offers are StoreKit 2's alone: no signed discount applies one (docs/decisions.md 96).
                return .failure(
                    StoreFailure(
                        .invalidOfferIdentifier,
                        "\"\(discount.offerID)\" is a win-back offer of \(product.id), not a promotional offer; a "
                            + "win-back offer is applied with StoreKit 2's Product.PurchaseOption.winBackOffer(_:)"))
            }
            return .failure(
                StoreFailure(.invalidOfferIdentifier, "\(product.id) has no promotional offer \"\(discount.offerID)\"")
            )
        }
        guard !discount.keyID.isEmpty, !discount.nonce.isEmpty, discount.timestamp > 0 else {
            return .failure(
                StoreFailure(.missingOfferParams, "the payment discount lacks a key identifier, nonce or timestamp"))
        }
        guard !discount.signature.isEmpty, let signature = Data(base64Encoded: discount.signature) else {
            return .failure(StoreFailure(.invalidSignature, "the payment discount's signature is not base64"))
        }
        if let pem = settings.subscriptionOfferKeys[discount.keyID] {
            let key: OfferVerificationKey
            do {
                key = try OfferVerificationKey(pemEncoded: pem)
            } catch {
                return .failure(
                    StoreFailure(
                        .invalidSignature,
                        "the store's subscription-offer key \"\(discount.keyID)\" is not a P-256 public key in PEM "
                            + "(BEGIN PUBLIC KEY): \(error.detail); fix subscriptionOfferKeys in the store's settings"))
            }
            let message = PromotionalOfferSignature.message(
                appBundleID: appBundleID, keyID: discount.keyID, productID: product.id, offerID: discount.offerID,
                appAccountToken: applicationUsername, nonce: discount.nonce, timestamp: discount.timestamp)
            guard key.verifies(Array(signature), over: message) else {
                return .failure(
                    StoreFailure(
                        .invalidSignature,
                        "the payment discount's signature does not verify with subscription-offer key "
                            + "\"\(discount.keyID)\" over \(appBundleID), \(product.id), \(discount.offerID), its nonce "
                            + "and timestamp"))
            }
        }
        let age = now.timeIntervalSince1970 * 1000 - Double(discount.timestamp)
        guard age <= 86_400_000, age >= -300_000 else {
            return .failure(StoreFailure(.invalidSignature, "the payment discount's signature is more than a day old"))
        }
        guard usedNonces.insert(discount.nonce.lowercased()).inserted else {
            return .failure(StoreFailure(.invalidSignature, "the payment discount's nonce was already used"))
        }
        let hasSubscribed = hasRecord(of: account, inGroup: subscription.groupID) { $0.state == .purchased }
        guard hasSubscribed else {
            return .failure(
                StoreFailure(.ineligibleForOffer, "promotional offers are for customers who have subscribed before")
            )
        }
        return .success(offer)
    }

    /// Whether an account may still use the introductory offer of a subscription group: it never subscribed in it. The
    /// one rule of ``SimulatedStore/isEligibleForIntroductoryOffer(groupID:account:)``.
    func isEligibleForIntroductoryOffer(account: String, groupID: String) -> Bool {
        !hasRecord(of: account, inGroup: groupID) {
            $0.state == .purchased || $0.isTrialPeriod || $0.isInIntroOfferPeriod
        }
    }

    /// A purchase of a subscription that takes effect at the next renewal (the product it has, or a downgrade): the
    /// subscription renews to `productID`, with the promotional offer if one was redeemed; the purchase's record is
    /// dropped, and the change reported (the offer redeemed, or the renewal product changed when it did).
    ///
    /// - Returns: The subscription's latest transaction, which the purchase reports.
    private mutating func renewNext(
        _ subscription: SubscriptionState, key: String, as productID: String, with promotional: ProductOffer?,
        change: StoreChange.ProductChange, droppingRecord recordID: UInt64, at now: Date
    ) -> UInt64 {
        var running = subscription
        let changes = running.renewalProductID != productID
        running.renewalProductID = productID
        if let promotional { Self.redeem(promotional, atNextRenewalOf: &running) }
        subscriptions[key] = running
        records[recordID] = nil
        if let promotional {
            report(.offerRedeemed(offerID: promotional.identifier ?? "", change), at: now, of: running)
        } else if changes {
            report(.renewalProductChanged(toProductID: productID), at: now, of: running)
        }
        return running.latestRecordID
    }

    /// Puts a promotional offer redeemed on a running subscription in effect from its next renewal (for the product it
    /// renews to), as the App Store does for an offer on an active subscription.
    static func redeem(_ offer: ProductOffer, atNextRenewalOf subscription: inout SubscriptionState) {
        subscription.offer = offer
        subscription.offerPeriodsLeft = offer.paymentMode == .payAsYouGo ? offer.numberOfPeriods : 1
    }

    /// Whether two subscription periods last the same time (`P1W` and `P7D`, `P1Y` and `P12M`).
    static func lastSameTime(_ one: SubscriptionPeriod, _ other: SubscriptionPeriod) -> Bool {
        func normalized(_ period: SubscriptionPeriod) -> (Int, Bool) {
            switch period.unit {
            case .day: (period.value, false)
            case .week: (period.value * 7, false)
            case .month: (period.value, true)
            case .year: (period.value * 12, true)
            }
        }
        return normalized(one) == normalized(other)
    }

    /// Charges a purchase and records it, and returns the record that grants it. An owned non-consumable or the
    /// subscription already running is granted again without a second charge; an upgrade, or a crossgrade of the same
    /// duration, starts at once, a downgrade or a crossgrade of another duration at the next renewal. Without an offer,
    /// a new subscription gets its introductory offer when `introductoryOfferAllowed` says so (a signed eligibility
    /// JWS), or, when it is nil, when the account is eligible.
    mutating func grant(
        recordID: UInt64,
        request: PaymentRequest,
        product: ProductDefinition,
        account: String,
        deviceID: String?,
        offer promotional: ProductOffer?,
        introductoryOfferAllowed: Bool? = nil,
        now: Date
    ) -> UInt64 {
        var record = TransactionRecord(
            id: recordID,
            account: account,
            productID: product.id,
            productType: product.type,
            quantity: request.quantity,
            state: .purchased,
            purchaseDate: now,
            applicationUsername: request.applicationUsername,
            deviceID: deviceID
        )
        switch product.type {
        case .consumable, .nonRenewingSubscription:
            break
        case .nonConsumable:
            if let owned = ownedRecord(of: account, productID: product.id) {
                records[recordID] = nil
                return owned.id
            }
        case .autoRenewableSubscription:
            guard let info = product.subscription else { break }
            let key = Self.subscriptionKey(account: account, groupID: info.groupID)
            var replaced: String?
            if let running = subscriptions[key], running.grantsAccess {
                if running.productID == product.id {
                    return renewNext(
                        running, key: key, as: product.id, with: promotional, change: .sameProduct,
                        droppingRecord: recordID, at: now)
                }
                let current = configuration.catalog.product(running.productID)?.subscription
                let currentLevel = current?.groupLevel ?? .max
                // An upgrade, or a crossgrade (same level) of the same duration, replaces the current period now; a
                // downgrade, or a crossgrade of another duration, waits for the next renewal.
                let sameDuration = current.map { Self.lastSameTime($0.period, info.period) } ?? false
                let isImmediate = info.groupLevel < currentLevel || (info.groupLevel == currentLevel && sameDuration)
                guard isImmediate else {
                    return renewNext(
                        running, key: key, as: product.id, with: promotional, change: .downgrade,
                        droppingRecord: recordID, at: now)
                }
                records[running.latestRecordID]?.isUpgraded = true
                records[running.latestRecordID]?.cancellationDate = now
                mirrorShares(of: running.latestRecordID)
                replaced = running.productID
            }
            // A monthly plan bills a month at a time with a commitment, and applies no offer (decision 109).
            let plan = Self.recordedPlan(
                request.billingPlan.flatMap { info.plan($0, price: product.price) }, of: info)
            let monthly = plan == .monthly
            let introOffer =
                !monthly && promotional == nil
                    && (introductoryOfferAllowed
                        ?? isEligibleForIntroductoryOffer(account: account, groupID: info.groupID))
                ? info.introductoryOffer : nil
            let offer = monthly ? nil : promotional ?? introOffer
            let previous = subscriptions[key]
            record.originalID = previous?.originalID ?? recordID
            record.originalPurchaseDate = previous.flatMap { records[$0.originalID]?.purchaseDate } ?? now
            record.billingPlan = plan
            if monthly {
                record.expirationDate = SubscriptionPeriod(value: 1, unit: .month).advance(now)
                record.commitment = Self.newCommitment(anchor: now, periodsBefore: 0)
            } else {
                record.expirationDate = (offer?.period ?? info.period).advance(now)
            }
            record.webOrderLineItemID = allocateWebOrderLineItemID()
            record.isTrialPeriod = offer?.paymentMode == .freeTrial
            record.isInIntroOfferPeriod =
                offer != nil && offer?.kind == .introductory && offer?.paymentMode != .freeTrial
            record.promotionalOfferID = offer?.kind == .introductory ? nil : offer?.identifier
            record.autoRenewEnabled = true
            record.isRenewal = false
            var subscription = SubscriptionState(
                account: account,
                groupID: info.groupID,
                record: TransactionRecordSnapshot(
                    id: recordID,
                    originalID: record.originalID,
                    productID: product.id,
                    expiresAt: record.expirationDate ?? now
                )
            )
            if let offer, offer.paymentMode == .payAsYouGo {
                subscription.offer = offer
                subscription.offerPeriodsLeft = offer.numberOfPeriods - 1
            }
            subscriptions[key] = subscription
            records[recordID] = record
            let kind: StoreChange.Kind
            if let replaced {
                kind =
                    promotional.map { .offerRedeemed(offerID: $0.identifier ?? "", .upgrade) }
                    ?? .upgraded(fromProductID: replaced)
            } else {
                kind = .subscribed(resubscribed: previous != nil)
            }
            report(kind, at: now, of: subscription)
            shareWithFamily(recordID, as: .subscribed(resubscribed: false), at: now)
            return recordID
        }
        records[recordID] = record
        report(.oneTimePurchase, at: now, transactionID: recordID, subscription: nil)
        shareWithFamily(recordID, as: .oneTimePurchase, at: now)
        return recordID
    }
}
