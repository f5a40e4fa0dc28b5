// How a paywall labels products and purchases, written as iOS code with Apple's documented names for people and for
// debugging. Keep this file's only import StoreKit.
import StoreKit

/// The words a paywall shows for one product.
struct ProductLabels {
    let product: Product

    /// The product's kind, such as "Auto-Renewable Subscription".
    var kind: String { product.type.localizedDescription }

    /// The price per period's unit, such as "$2.99 per month"; `nil` for a product that is not a subscription.
    var pricePerUnit: String? {
        guard let period = product.subscription?.subscriptionPeriod else { return nil }
        return "\(product.displayPrice) per \(period.unit.formatted(product.subscriptionPeriodUnitFormatStyle))"
    }

    /// The period's unit as a label, such as "Month".
    var unitLabel: String? { product.subscription?.subscriptionPeriod.unit.localizedDescription }

    /// The introductory offer, such as "Introductory Offer: Free Trial".
    var introductoryOffer: String? {
        guard let offer = product.subscription?.introductoryOffer else { return nil }
        return "\(offer.type.localizedDescription): \(offer.paymentMode.localizedDescription)"
    }

    /// The offer's period for a log, such as "1 week".
    var introductoryPeriodForLog: String? {
        product.subscription?.introductoryOffer.map { String(reflecting: $0.period) }
    }
}

/// What an app logs about a purchase.
enum PurchaseLogLine {
    /// One line for a verification result, with the deprecated string representations older code still reads.
    static func line(for result: VerificationResult<Transaction>) -> String {
        let transaction = result.unsafePayloadValue
        let offer = [transaction.offerPaymentModeStringRepresentation, transaction.offerPeriodStringRepresentation]
            .compactMap { $0 }.joined(separator: " ")
        return "\(transaction.productID) \(transaction.environmentStringRepresentation) "
            + "\(transaction.reasonStringRepresentation) [\(offer)] \(String(reflecting: result).prefix(9))"
    }
}
