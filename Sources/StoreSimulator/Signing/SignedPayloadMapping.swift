public import Foundation
public import ReceiptKit
public import StoreModels

/// How the store's records become the payloads Apple signs: a `TransactionRecord` becomes a
/// `JWSTransaction`, a ``SubscriptionState`` a `JWSRenewalInfo`, the app an
/// `JWSAppTransaction`, with Apple's keys and wire values (identifiers as strings of digits, dates in
/// whole milliseconds, prices in milli-units of the currency).
///
/// The mapping is pure: the same inputs give the same payload. ``SimulatedStore`` uses it to sign; tests and other
/// layers can use it to see what the store would sign. `docs/jws.md` lists the field mapping.
public struct SignedPayloadMapping: Sendable, Hashable {
    /// The app: its bundle identifier and versions.
    public var app: AppIdentity
    /// The environment the payloads name: `Sandbox`, or `Xcode` for Xcode-shaped signing.
    public var environment: JWSEnvironment
    /// The storefront the payloads name, and whose currency prices are in.
    public var storefront: Storefront
    /// The catalog that gives products' groups, prices and offers.
    public var catalog: StoreCatalog

    /// When the App Store sandbox says every app was first bought: 2013-08-01T07:00:00Z, as Apple's sandbox app
    /// transactions report.
    public static let sandboxOriginalPurchaseDate = Date(timeIntervalSince1970: 1_375_340_400)

    /// Creates a mapping.
    ///
    /// - Parameters:
    ///   - app: The app.
    ///   - environment: The environment the payloads name.
    ///   - storefront: The storefront the payloads name.
    ///   - catalog: The catalog.
    public init(app: AppIdentity, environment: JWSEnvironment, storefront: Storefront, catalog: StoreCatalog) {
        self.app = app
        self.environment = environment
        self.storefront = storefront
        self.catalog = catalog
    }

    // MARK: Transactions

    /// The signed-transaction payload of a record.
    ///
    /// - Parameters:
    ///   - record: The record; the store signs only purchased ones.
    ///   - signedDate: The store's clock when it signs.
    /// - Returns: The payload.
    public func transaction(_ record: TransactionRecord, signedDate: Date) -> JWSTransaction {
        let product = catalog.product(record.productID)
        var payload = JWSTransaction()
        payload.transactionId = String(record.id)
        payload.originalTransactionId = String(record.originalID)
        payload.webOrderLineItemId = record.webOrderLineItemID.map { String($0) }
        payload.bundleId = app.bundleIdentifier
        payload.productId = record.productID
        payload.subscriptionGroupIdentifier =
            record.productType == .autoRenewableSubscription ? product?.subscription?.groupID : nil
        payload.purchaseDate = JWSDate(record.purchaseDate)
        payload.originalPurchaseDate = JWSDate(record.originalPurchaseDate)
        payload.expiresDate = record.expirationDate.map(JWSDate.init)
        payload.quantity = Int32(clamping: record.quantity)
        payload.type = Self.productType(record.productType)
        payload.appAccountToken = Self.appAccountToken(record.applicationUsername)
        payload.inAppOwnershipType = record.isFamilyShared ? .familyShared : .purchased
        payload.signedDate = JWSDate(signedDate)
        if let revoked = record.cancellationDate, !(record.isUpgraded && record.revocationReason == nil) {
            payload.revocationDate = JWSDate(revoked)
            if record.isFamilyShared && record.revocationReason == nil {
                // A shared transaction is never refunded itself: its revocation is the family's.
                payload.revocationType = .familyRevoke
            } else {
                payload.revocationReason = JWSTransaction.RevocationReason(
                    rawValue: (record.revocationReason ?? .other).rawValue)
            }
            if record.revocationReason != nil {
                // A refund (API 1.19): in full, or prorated with the share the App Store refunded.
                payload.revocationType = record.revocationPercentage == nil ? .refundFull : .refundProrated
                payload.revocationPercentage = Int32(record.revocationPercentage ?? 100_000)
            }
        }
        if record.isUpgraded { payload.isUpgraded = true }
        applyOffer(of: record, product: product, to: &payload)
        payload.environment = environment
        payload.transactionReason = Self.isRenewal(record) ? .renewal : .purchase
        payload.storefront = storefront.countryCode
        payload.storefrontId = storefront.identifier
        if let product {
            payload.price = Self.milliUnits(SimulatedStore.amountCharged(by: record, product: product))
            payload.currency = currency
        }
        payload.appTransactionId = Self.appTransactionID(account: record.account)
        applyBillingPlan(of: record, product: product, to: &payload)
        return payload
    }

    /// The billing plan and, for a period billed monthly, its commitment (decision 109).
    private func applyBillingPlan(
        of record: TransactionRecord, product: ProductDefinition?, to payload: inout JWSTransaction
    ) {
        guard let kind = record.billingPlan else { return }
        payload.billingPlanType = JWSBillingPlanType(rawValue: kind.rawValue)
        guard let commitment = record.commitment else { return }
        var info = JWSTransactionCommitmentInfo()
        info.billingPeriodNumber = Int32(clamping: commitment.billingPeriodNumber)
        info.totalBillingPeriods = Int32(clamping: commitment.totalBillingPeriods)
        info.commitmentExpiresDate = JWSDate(commitment.expirationDate)
        if let product, let plan = product.subscription?.plan(kind, price: product.price) {
            info.commitmentPrice = Self.milliUnits(plan.commitmentPrice * Decimal(record.quantity))
        }
        payload.commitmentInfo = info
    }

    /// Whether a record is a renewal: a period the store renewed by itself (`TransactionRecord.isRenewal`).
    /// Records of older state files, which do not say, count as renewals when they are a later period of an
    /// auto-renewable subscription that was not bought on a device.
    public static func isRenewal(_ record: TransactionRecord) -> Bool {
        record.isRenewal
            ?? (record.productType == .autoRenewableSubscription && record.id != record.originalID
                && record.deviceID == nil)
    }

    private func applyOffer(of record: TransactionRecord, product: ProductDefinition?, to payload: inout JWSTransaction)
    {
        let offer: ProductOffer?
        if let identifier = record.promotionalOfferID {
            offer = product?.subscription?.offer(identifier: identifier)
            payload.offerType = offer.map { Self.offerType($0.kind) } ?? .promotional
            payload.offerIdentifier = identifier
        } else if record.isTrialPeriod || record.isInIntroOfferPeriod {
            payload.offerType = .introductory
            offer = product?.subscription?.introductoryOffer
        } else {
            return
        }
        if let offer {
            payload.offerDiscountType = Self.discountType(offer.paymentMode)
            payload.offerPeriod = Self.duration(of: offer)
        } else if record.isTrialPeriod {
            payload.offerDiscountType = .freeTrial
        }
    }

    /// The `offerType` of an offer's kind: 1 introductory, 2 promotional, 3 offer code, 4 win-back.
    private static func offerType(_ kind: ProductOffer.Kind) -> JWSTransaction.OfferType {
        switch kind {
        case .introductory: .introductory
        case .promotional: .promotional
        case .offerCode: .code
        case .winBack: .winBack
        }
    }

    // MARK: Renewal info

    /// The signed-renewal-info payload of a subscription.
    ///
    /// - Parameters:
    ///   - subscription: The subscription of one account in one group.
    ///   - history: The account's records (for the latest period's app account token and the start of the current run
    ///     of continuous subscription); records of other subscriptions are ignored.
    ///   - eligibleWinBackOfferIDs: The win-back offers the subscriber may redeem, best first, as the store's rule
    ///     gives them (`eligibleWinBackOfferIds`, absent when empty).
    ///   - signedDate: The store's clock when it signs.
    /// - Returns: The payload.
    public func renewalInfo(
        _ subscription: SubscriptionState, history: [TransactionRecord], eligibleWinBackOfferIDs: [String] = [],
        signedDate: Date
    ) -> JWSRenewalInfo {
        let periods = history.filter { $0.originalID == subscription.originalID && $0.state == .purchased }
            .sorted { ($0.purchaseDate, $0.id) < ($1.purchaseDate, $1.id) }
        let latest = periods.last { $0.id == subscription.latestRecordID } ?? periods.last
        var payload = JWSRenewalInfo()
        payload.originalTransactionId = String(subscription.originalID)
        payload.productId = subscription.productID
        payload.autoRenewProductId = subscription.renewalProductID
        payload.autoRenewStatus = subscription.autoRenew ? .on : .off
        payload.isInBillingRetryPeriod = subscription.phase == .billingRetry || subscription.phase == .gracePeriod
        payload.gracePeriodExpiresDate =
            subscription.phase == .gracePeriod ? subscription.gracePeriodEndsAt.map(JWSDate.init) : nil
        if subscription.phase == .expired {
            payload.expirationIntent = Self.expirationIntent(subscription, latest: latest)
        } else {
            payload.renewalDate = JWSDate(subscription.expiresAt)
        }
        if subscription.pendingPriceIncrease { payload.priceIncreaseStatus = .notResponded }
        let renewalProduct = catalog.product(subscription.renewalProductID)
        var renewalPrice = renewalProduct?.price
        if let offer = subscription.offer, subscription.offerPeriodsLeft > 0 {
            payload.offerType = Self.offerType(offer.kind)
            payload.offerIdentifier = offer.kind == .introductory ? nil : offer.identifier
            payload.offerDiscountType = Self.discountType(offer.paymentMode)
            payload.offerPeriod = Self.duration(of: offer)
            renewalPrice = offer.paymentMode == .freeTrial ? 0 : offer.price
        }
        if let renewalPrice {
            payload.renewalPrice = Self.milliUnits(renewalPrice)
            payload.currency = currency
        }
        payload.recentSubscriptionStartDate = Self.recentStart(of: periods).map(JWSDate.init)
        payload.signedDate = JWSDate(signedDate)
        payload.environment = environment
        payload.appAccountToken = Self.appAccountToken(latest?.applicationUsername)
        payload.appTransactionId = Self.appTransactionID(account: subscription.account)
        payload.eligibleWinBackOfferIds = eligibleWinBackOfferIDs.isEmpty ? nil : eligibleWinBackOfferIDs
        applyBillingPlan(of: subscription, latest: latest, to: &payload)
        return payload
    }

    /// The next renewal's billing plan and price and, while a commitment runs, what happens at its end (decision 109):
    /// a subscription billed monthly renews monthly while the product it renews to offers the plan.
    private func applyBillingPlan(
        of subscription: SubscriptionState, latest: TransactionRecord?, to payload: inout JWSRenewalInfo
    ) {
        guard let latest, latest.billingPlan != nil,
            let product = catalog.product(subscription.renewalProductID), let info = product.subscription
        else { return }
        let monthly = latest.billingPlan == .monthly ? info.plan(.monthly, price: product.price) : nil
        let plan = monthly ?? info.plan(.upFront, price: product.price)
        guard let plan else { return }
        payload.renewalBillingPlanType = JWSBillingPlanType(rawValue: plan.kind.rawValue)
        if payload.offerType == nil, payload.renewalPrice != nil {
            payload.renewalPrice = Self.milliUnits(plan.price)
        }
        // Apple sends the commitment's renewal only while the subscription is in a commitment.
        guard let monthly, let commitment = latest.commitment, subscription.phase != .expired else { return }
        var next = JWSRenewalCommitmentInfo()
        next.commitmentAutoRenewProductId = subscription.renewalProductID
        next.commitmentAutoRenewStatus = subscription.autoRenew ? .on : .off
        next.commitmentRenewalBillingPlanType = .monthly
        next.commitmentRenewalDate = JWSDate(commitment.expirationDate)
        next.commitmentRenewalPrice = Self.milliUnits(monthly.commitmentPrice)
        payload.commitmentInfo = next
    }

    private static func expirationIntent(_ subscription: SubscriptionState, latest: TransactionRecord?)
        -> JWSRenewalInfo.ExpirationIntent
    {
        if let latest, latest.cancellationDate != nil, !latest.isUpgraded { return .other }
        if !subscription.autoRenew { return .customerCancelled }
        if subscription.billingIssueStartedAt != nil || latest?.hasPurchaseIssue == true { return .billingError }
        return .other
    }

    /// The purchase date of the first period of the latest run of periods with no gap between them.
    private static func recentStart(of periods: [TransactionRecord]) -> Date? {
        guard var start = periods.last?.purchaseDate else { return nil }
        for period in periods.dropLast().reversed() {
            guard let end = period.expirationDate, end >= start else { break }
            start = min(start, period.purchaseDate)
        }
        return start
    }

    // MARK: App transaction

    /// The signed-app-transaction payload of an account.
    ///
    /// - Parameters:
    ///   - account: The account.
    ///   - signedDate: The store's clock when it signs; also the receipt creation date.
    /// - Returns: The payload.
    public func appTransaction(account: String, signedDate: Date) -> JWSAppTransaction {
        var payload = JWSAppTransaction()
        payload.receiptType = environment
        payload.appAppleId = 0
        payload.bundleId = app.bundleIdentifier
        payload.applicationVersion = app.applicationVersion
        payload.versionExternalIdentifier = 0
        payload.receiptCreationDate = JWSDate(signedDate)
        payload.originalPurchaseDate = JWSDate(Self.sandboxOriginalPurchaseDate)
        payload.originalApplicationVersion = app.originalApplicationVersion
        payload.appTransactionId = Self.appTransactionID(account: account)
        payload.originalPlatform = "iOS"
        return payload
    }

    /// The app transaction identifier of an account: 18 digits, fixed for the account name, as the App Store keeps
    /// one per account and app.
    ///
    /// - Parameter account: The account.
    /// - Returns: The identifier.
    public static func appTransactionID(account: String) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in account.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return String(700_000_000_000_000_000 + hash % 100_000_000_000_000_000)
    }

    // MARK: Values

    /// The ISO 4217 code of the storefront's currency (`USD` when its locale names none).
    public var currency: String {
        Locale(identifier: storefront.priceLocaleIdentifier).currency?.identifier ?? "USD"
    }

    /// The `type` of a product type.
    public static func productType(_ type: ProductType) -> JWSTransaction.ProductType {
        switch type {
        case .consumable: .consumable
        case .nonConsumable: .nonConsumable
        case .nonRenewingSubscription: .nonRenewable
        case .autoRenewableSubscription: .autoRenewable
        }
    }

    /// The `appAccountToken` of a payment's application username: the username when it is a UUID (lowercase), as
    /// StoreKit carries a UUID `applicationUsername` over as the app account token; otherwise none.
    public static func appAccountToken(_ applicationUsername: String?) -> String? {
        applicationUsername.flatMap(UUID.init(uuidString:)).map { $0.uuidString.lowercased() }
    }

    /// An amount in milli-units, rounded to the nearest (1.99 is 1990).
    public static func milliUnits(_ amount: Decimal) -> Int64 {
        var scaled = amount * 1000
        var rounded = Decimal()
        NSDecimalRound(&rounded, &scaled, 0, .plain)
        return NSDecimalNumber(decimal: rounded).int64Value
    }

    private static func discountType(_ mode: OfferPaymentMode) -> JWSTransaction.OfferDiscountType {
        switch mode {
        case .freeTrial: .freeTrial
        case .payAsYouGo: .payAsYouGo
        case .payUpFront: .payUpFront
        }
    }

    /// The offer's whole duration, ISO 8601.
    private static func duration(of offer: ProductOffer) -> String {
        let periods = offer.paymentMode == .payUpFront ? 1 : max(offer.numberOfPeriods, 1)
        return SubscriptionPeriod(value: offer.period.value * periods, unit: offer.period.unit).iso8601
    }
}
