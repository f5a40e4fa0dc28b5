// A subscription manager as iOS 17 to 26 apps write one with StoreKit 2: offers signed by the app's server, every
// group's statuses, purchases started in the App Store, the renewal info a paywall reads, and the app transaction.
// Written as Apple's documentation shows each API. Keep this file's only import StoreKit: `Date`, `Data`, `UUID`,
// `Decimal`, `Locale` and `JSONEncoder` come with it, as on Apple's platforms.
import StoreKit

/// What a paywall shows of a customer's subscription, read from its status.
struct SubscriptionSummary: Equatable, Codable {
    var productID: String
    var willAutoRenew: Bool
    var renewalPrice: Decimal?
    var currencyCode: String?
    var offerType: String?
    var offerID: String?
    var offerPaymentMode: String?
    var offerPeriod: String?
    var offerPaymentModeString: String?
    var eligibleWinBackOfferIDs: [String]
    var appAccountToken: UUID?
    var appTransactionID: String
    var renewalDate: Date?
}

/// What the app keeps of a purchase.
struct PurchaseSummary: Equatable {
    var productID: String
    var offerType: Transaction.OfferType?
    var offerID: String?
    var offerPeriod: Product.SubscriptionPeriod?
    var price: Decimal?
    var storefrontCountryCode: String
    var currencyCode: String?
}

/// Why the manager refuses a result.
enum SubscriptionManagerError: Error {
    case failedVerification
    case notPurchased
}

/// Offers, statuses and purchase intents, as a subscription manager of an app handles them.
@MainActor
final class SubscriptionManager {
    /// Each group's statuses, as `Status.all` last gave them.
    private(set) var statusesByGroup: [String: [Product.SubscriptionInfo.Status]] = [:]
    /// The products of the purchase intents heard, in order.
    private(set) var intentProducts: [String] = []
    /// Whether a purchase goes on when the storefront changes while it is in progress.
    var continuesInNewStorefront = true

    nonisolated func checkVerified<T>(_ result: VerificationResult<T>) throws -> T {
        switch result {
        case .unverified:
            throw SubscriptionManagerError.failedVerification
        case .verified(let safe):
            return safe
        }
    }

    /// Buys a subscription with a promotional offer the app's server signed as a JWS, and the server's decision on the
    /// introductory offer, if it sent one.
    func purchase(
        _ product: Product, offer: Product.SubscriptionOffer, compactJWS: String, eligibilityJWS: String? = nil
    ) async throws -> Transaction {
        var options = Set(Product.PurchaseOption.promotionalOffer(offer.id ?? "", compactJWS: compactJWS))
        if let eligibilityJWS {
            options.insert(.introductoryOfferEligibility(compactJWS: eligibilityJWS))
        }
        options.insert(.appAccountToken(UUID(uuidString: "6B29FC40-CA47-1067-B31D-00DD010662DA")!))
        return try await purchase(product, options: options)
    }

    /// Buys a product, asking whether to go on if the storefront changes meanwhile.
    func purchase(_ product: Product, options: Set<Product.PurchaseOption> = []) async throws -> Transaction {
        let keepGoing = continuesInNewStorefront
        var options = options
        options.insert(
            .onStorefrontChange { storefront in
                print("Storefront changed to \(storefront.countryCode) during the purchase")
                return keepGoing
            })
        let result = try await product.purchase(options: options)
        guard case .success(let verification) = result else { throw SubscriptionManagerError.notPurchased }
        let transaction = try checkVerified(verification)
        await transaction.finish()
        return transaction
    }

    /// Follows every subscription group's statuses until the task is cancelled, calling `changed` after each.
    func observeStatuses(_ changed: @MainActor (String) -> Void) async {
        for await (groupID, statuses) in Product.SubscriptionInfo.Status.all {
            statusesByGroup[groupID] = statuses
            changed(groupID)
        }
    }

    /// Completes the purchases customers start in the App Store, until the task is cancelled.
    func observePurchaseIntents(_ handled: @MainActor (Transaction) -> Void) async {
        for await purchaseIntent in PurchaseIntent.intents {
            intentProducts.append(purchaseIntent.product.id)
            var options: Set<Product.PurchaseOption> = []
            if let offer = purchaseIntent.offer, offer.type == .winBack {
                options.insert(.winBackOffer(offer))
            }
            if let transaction = try? await purchase(purchaseIntent.product, options: options) {
                handled(transaction)
            }
        }
    }

    /// What a paywall shows of a subscription's renewal.
    nonisolated func summary(of status: Product.SubscriptionInfo.Status) throws -> SubscriptionSummary {
        let renewalInfo = try checkVerified(status.renewalInfo)
        return SubscriptionSummary(
            productID: renewalInfo.currentProductID,
            willAutoRenew: renewalInfo.willAutoRenew,
            renewalPrice: renewalInfo.renewalPrice,
            currencyCode: renewalInfo.currency?.identifier,
            offerType: renewalInfo.offer.map { "\($0.type.rawValue)" },
            offerID: renewalInfo.offer?.id,
            offerPaymentMode: renewalInfo.offer?.paymentMode?.rawValue,
            offerPeriod: renewalInfo.offer?.period.map { String(reflecting: $0) },
            offerPaymentModeString: renewalInfo.offerPaymentModeStringRepresentation,
            eligibleWinBackOfferIDs: renewalInfo.eligibleWinBackOfferIDs,
            appAccountToken: renewalInfo.appAccountToken,
            appTransactionID: renewalInfo.appTransactionID,
            renewalDate: renewalInfo.renewalDate)
    }

    /// What the app keeps of a purchase.
    nonisolated func summary(of transaction: Transaction) -> PurchaseSummary {
        PurchaseSummary(
            productID: transaction.productID, offerType: transaction.offer?.type, offerID: transaction.offer?.id,
            offerPeriod: transaction.offer?.period, price: transaction.price,
            storefrontCountryCode: transaction.storefrontCountryCode, currencyCode: transaction.currencyCode)
    }

    /// The identifiers of the transactions that entitle the customer to a product now.
    func entitlements(to product: Product) async -> [UInt64] {
        var ids: [UInt64] = []
        for await result in product.currentEntitlements {
            if let transaction = try? checkVerified(result) { ids.append(transaction.id) }
        }
        return ids
    }

    /// The platform the customer first got the app on, as the app reports it to its server.
    func originalPlatform() async throws -> String {
        let appTransaction = try checkVerified(try await AppTransaction.shared)
        switch appTransaction.originalPlatform {
        case .iOS: return "iOS"
        case .macOS: return "macOS"
        case .tvOS: return "tvOS"
        case .visionOS: return "visionOS"
        default: return appTransaction.originalPlatform.rawValue
        }
    }

    /// A line for the app's log, with the string representations older code still reads.
    func environmentLine(for status: Product.SubscriptionInfo.Status) async throws -> String {
        let transaction = try checkVerified(status.transaction)
        let renewalInfo = try checkVerified(status.renewalInfo)
        let appTransaction = try checkVerified(try await AppTransaction.shared)
        return [
            transaction.environmentStringRepresentation, renewalInfo.environmentStringRepresentation,
            appTransaction.environmentStringRepresentation, appTransaction.originalPlatformStringRepresentation,
        ].joined(separator: " ")
    }

    /// The summary as JSON for the app's server.
    nonisolated func encoded(_ summary: SubscriptionSummary) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        return try encoder.encode(summary)
    }
}
