public import Foundation
import StoreModels

extension SimulatedStore {
    /// What the account was charged for a transaction of the store's history, in the storefront's currency: the
    /// product's price times the quantity, or for a subscription period in an offer the offer's price (per period
    /// when paid as you go, for the whole offer when paid up front, zero in a free trial).
    ///
    /// The price is the catalog's now: the store keeps no price with its records. An upgrade is charged the new
    /// product's full price; the unused part of the replaced period is not prorated. A refund does not change what
    /// was charged.
    ///
    /// - Returns: The amount; zero for a transaction that was not charged (failed, deferred, pending); `nil` when
    ///   the history holds no such transaction or the catalog no longer has its product.
    public func amountCharged(forTransaction id: UInt64) -> Decimal? {
        guard let record = transaction(id), let product = catalog.product(record.productID) else { return nil }
        return Self.amountCharged(by: record, product: product)
    }

    /// What a record was charged given its product, as ``amountCharged(forTransaction:)`` computes it.
    static func amountCharged(by record: TransactionRecord, product: ProductDefinition) -> Decimal {
        guard record.state == .purchased else { return 0 }
        if record.isTrialPeriod { return 0 }
        let offer: ProductOffer?
        if let identifier = record.promotionalOfferID {
            offer = product.subscription?.offer(identifier: identifier)
        } else if record.isInIntroOfferPeriod {
            offer = product.subscription?.introductoryOffer
        } else {
            offer = nil
        }
        if let offer { return offer.paymentMode == .freeTrial ? 0 : offer.price }
        if let kind = record.billingPlan, let plan = product.subscription?.plan(kind, price: product.price) {
            return plan.price * Decimal(record.quantity)
        }
        return product.price * Decimal(record.quantity)
    }
}
