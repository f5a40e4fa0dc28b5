import StoreKit

/// How an app finds and redeems the win-back offers of a customer whose subscription lapsed, as Apple's "Supporting
/// win-back offers in your app" describes: the product's win-back offers that the renewal info says the customer may
/// redeem, best first.
enum WinBackOffers {
    /// The offers of a product the customer may redeem now, best first.
    static func eligible(for product: Product) async throws -> [Product.SubscriptionOffer] {
        guard let subscription = product.subscription,
            let status = try await subscription.status.first,
            case .verified(let renewalInfo) = status.renewalInfo
        else { return [] }
        return renewalInfo.eligibleWinBackOfferIDs.compactMap { id in
            subscription.winBackOffers.first { $0.id == id }
        }
    }

    /// Buys a product with a win-back offer and finishes the transaction.
    static func redeem(_ offer: Product.SubscriptionOffer, of product: Product) async throws -> Transaction? {
        guard case .success(.verified(let transaction)) = try await product.purchase(options: [.winBackOffer(offer)])
        else { return nil }
        await transaction.finish()
        return transaction
    }
}
