public import Foundation
import ReceiptKit

/// A purchase or renewal, as the App Store signed it: every field decodes from the signed transaction's payload,
/// with Apple's keys (reference: `Transaction` ↔ `JWSTransaction`).
///
/// Transactions come from the store: ``Product/purchase(options:)``, ``updates``, ``all``, ``currentEntitlements``,
/// ``unfinished``, ``latest(for:)``. There is no public initializer, as on iOS. Finish a transaction once its content
/// is delivered (``finish()``); an unfinished one is also in `SKPaymentQueue.transactions` of the same device.
public struct Transaction: Identifiable, Equatable, Hashable, Sendable, CustomDebugStringConvertible, SignedPayload {
    /// The transaction's identifier.
    public let id: UInt64
    /// The identifier of the original purchase (itself for a first purchase; the first purchase of a subscription
    /// for its renewals).
    public let originalID: UInt64
    /// The identifier of a subscription purchase event across devices.
    public let webOrderLineItemID: String?
    /// The product bought.
    public let productID: String
    /// The subscription group, for an auto-renewable subscription.
    public let subscriptionGroupID: String?
    /// The app's bundle identifier.
    public let appBundleID: String
    /// When the App Store charged the account.
    public let purchaseDate: Date
    /// When the original purchase was charged.
    public let originalPurchaseDate: Date
    /// When the subscription period expires.
    public let expirationDate: Date?
    /// How many were bought.
    public let purchasedQuantity: Int
    /// Whether the customer upgraded to another subscription of the group.
    public let isUpgraded: Bool
    /// The offer applied, if any.
    public let offer: Transaction.Offer?
    /// The kind of offer applied (use ``offer``).
    public let offerType: Transaction.OfferType?
    /// The offer's identifier (use ``offer``).
    public let offerID: String?
    /// When it was refunded or revoked.
    public let revocationDate: Date?
    /// Why it was refunded or revoked.
    public let revocationReason: Transaction.RevocationReason?
    /// The product's type.
    public let productType: Product.ProductType
    /// The app's account token given at purchase.
    public let appAccountToken: UUID?
    /// The environment that signed it.
    public let environment: AppStore.Environment
    /// Why the transaction exists: a purchase or a renewal.
    public let reason: Transaction.Reason
    /// The storefront it was bought in.
    public let storefront: Storefront
    /// Whether the customer bought it or a family member shares it.
    public let ownershipType: Transaction.OwnershipType
    /// When the App Store signed it.
    public let signedDate: Date
    /// The price paid, in units of ``currency`` (the JWS carries milli-units).
    public let price: Decimal?
    /// The currency of ``price``.
    public let currency: Locale.Currency?
    /// The app transaction's identifier.
    public let appTransactionID: String
    /// The device verification value.
    public let deviceVerification: Data
    /// Its nonce.
    public let deviceVerificationNonce: UUID
    /// The billing plan of a subscription whose product offers billing plans (iOS 26.4; docs/decisions.md 109).
    public let billingPlanType: Product.SubscriptionInfo.BillingPlanType?
    /// For a period billed monthly, its place in the commitment (iOS 26.4).
    public let commitmentInfo: Transaction.CommitmentInfo?
    /// What an Advanced Commerce API purchase carries (iOS 18.4): always `nil`, the store sells no Advanced
    /// Commerce SKUs (docs/decisions.md 110).
    public let advancedCommerceInfo: Transaction.AdvancedCommerceInfo? = nil
    /// The JWS it was decoded from.
    public let signed: SignedJWS
    /// The device it came from, to finish it there.
    let origin: StoreKitClient?

    init(_ payload: JWSTransaction, signed: SignedJWS, origin: StoreKitClient?) {
        id = payload.transactionId.flatMap { UInt64($0) } ?? 0
        originalID = payload.originalTransactionId.flatMap { UInt64($0) } ?? id
        webOrderLineItemID = payload.webOrderLineItemId
        productID = payload.productId ?? ""
        subscriptionGroupID = payload.subscriptionGroupIdentifier
        appBundleID = payload.bundleId ?? ""
        purchaseDate = payload.purchaseDate?.date ?? Date(timeIntervalSince1970: 0)
        originalPurchaseDate = payload.originalPurchaseDate?.date ?? purchaseDate
        expirationDate = payload.expiresDate?.date
        purchasedQuantity = payload.quantity.map(Int.init) ?? 1
        isUpgraded = payload.isUpgraded ?? false
        offerType = payload.offerType.map { OfferType(rawValue: $0.rawValue) }
        offerID = payload.offerIdentifier
        offer = Offer(
            type: payload.offerType, id: payload.offerIdentifier, discountType: payload.offerDiscountType,
            period: payload.offerPeriod)
        revocationDate = payload.revocationDate?.date
        revocationReason = payload.revocationReason.map { RevocationReason(rawValue: $0.rawValue) }
        productType = Product.ProductType(rawValue: payload.type?.rawValue ?? "")
        appAccountToken = payload.appAccountToken.flatMap { UUID(uuidString: $0) }
        environment = AppStore.Environment(rawValue: payload.environment?.rawValue ?? "")
        reason = Reason(rawValue: payload.transactionReason?.rawValue ?? Reason.purchase.rawValue)
        storefront = Storefront(countryCode: payload.storefront ?? "", id: payload.storefrontId ?? "")
        ownershipType = OwnershipType(
            rawValue: payload.inAppOwnershipType?.rawValue ?? OwnershipType.purchased.rawValue)
        signedDate = payload.signedDate?.date ?? Date(timeIntervalSince1970: 0)
        price = payload.price.map(Self.units(fromMilliUnits:))
        currency = payload.currency.map { Locale.Currency($0) }
        appTransactionID = payload.appTransactionId ?? ""
        deviceVerification = payload.deviceVerification.flatMap { Data(base64Encoded: $0) } ?? Data()
        deviceVerificationNonce =
            payload.deviceVerificationNonce.flatMap { UUID(uuidString: $0) } ?? UUID(uuid: UUID.null)
        billingPlanType = payload.billingPlanType.map(Product.SubscriptionInfo.BillingPlanType.init)
        commitmentInfo = CommitmentInfo(payload.commitmentInfo)
        self.signed = signed
        self.origin = origin
    }

    /// A price in units of its currency from the JWS's milli-units: the `Decimal` that `Decimal(milliUnits) / 1000`
    /// gives (trailing zeros dropped from the significand), built without a decimal division, which costs more
    /// than the rest of the transaction's fields together.
    static func units(fromMilliUnits milliUnits: Int64) -> Decimal {
        var significand = milliUnits.magnitude
        var exponent = -3
        while exponent < 0, significand != 0, significand % 10 == 0 {
            significand /= 10
            exponent += 1
        }
        if significand == 0 { exponent = 0 }
        return Decimal(
            sign: milliUnits < 0 ? .minus : .plus, exponent: exponent, significand: Decimal(significand))
    }

    /// The payload as JSON, with Apple's keys.
    public var jsonRepresentation: Data { signed.payloadData }

    /// The environment's name (use ``environment``).
    public var environmentStringRepresentation: String { environment.rawValue }
    /// The reason's name (use ``reason``).
    public var reasonStringRepresentation: String { reason.rawValue }
    /// The storefront's country code (use ``storefront``).
    public var storefrontCountryCode: String { storefront.countryCode }
    /// The currency's code (use ``currency``).
    public var currencyCode: String? { currency?.identifier }
    /// How the offer is paid, as signed transactions spell it (`FREE_TRIAL`, `PAY_AS_YOU_GO`, `PAY_UP_FRONT`,
    /// `ONE_TIME`); `nil` without an offer (use ``offer``).
    public var offerPaymentModeStringRepresentation: String? { offer?.paymentMode?.rawValue }
    /// The offer's length as an ISO 8601 duration, such as `P1M`; `nil` without an offer (use ``offer``).
    public var offerPeriodStringRepresentation: String? { offer?.period?.iso8601 }

    /// A description for debugging: the payload.
    public var debugDescription: String { String(decoding: signed.payloadData, as: UTF8.self) }

    /// The status of the transaction's subscription: the status of its group with the same original transaction.
    public var subscriptionStatus: Product.SubscriptionInfo.Status? {
        get async {
            guard let groupID = subscriptionGroupID else { return nil }
            let client = origin ?? StoreKitEnvironment.current
            let statuses = (try? await client.statuses(groupID: groupID)) ?? []
            return statuses.first { $0.transaction.unsafePayloadValue.originalID == originalID }
        }
    }

    /// Tells the store the content is delivered: the transaction leaves the device's queue (and
    /// `SKPaymentQueue.transactions`). Finishing twice is harmless.
    public func finish() async {
        await (origin ?? StoreKitEnvironment.current).finish(self)
    }

    /// Two transactions are equal when they decode from the same JWS.
    public static func == (lhs: Transaction, rhs: Transaction) -> Bool { lhs.signed == rhs.signed }

    /// Hashes the JWS.
    public func hash(into hasher: inout Hasher) { hasher.combine(signed.jws) }
}
