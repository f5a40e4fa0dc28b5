public import Foundation

/// A subscription offer: the introductory offer, or a promotional offer with an identifier.
public struct ProductOffer: Sendable, Hashable, Codable {
    /// Whether an offer is a product's introductory offer or a promotional one.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The introductory offer; at most one per subscription group per customer.
        case introductory
        /// A promotional offer, applied with a signed `SKPaymentDiscount`.
        case promotional
    }

    /// The offer identifier (promotional offers); `nil` for the introductory offer.
    public let identifier: String?
    /// Introductory or promotional.
    public let kind: Kind
    /// How the customer pays during the offer.
    public let paymentMode: OfferPaymentMode
    /// The price per period (pay as you go), for the whole offer (pay up front), or zero (free trial).
    public let price: Decimal
    /// The length of one offer period.
    public let period: SubscriptionPeriod
    /// How many periods the offer lasts.
    public let numberOfPeriods: Int

    /// Creates an offer.
    public init(
        identifier: String?,
        kind: Kind,
        paymentMode: OfferPaymentMode,
        price: Decimal,
        period: SubscriptionPeriod,
        numberOfPeriods: Int
    ) {
        self.identifier = identifier
        self.kind = kind
        self.paymentMode = paymentMode
        self.price = price
        self.period = period
        self.numberOfPeriods = numberOfPeriods
    }

    /// The date the offer ends if it starts at `date`.
    public func end(startingAt date: Date) -> Date {
        switch paymentMode {
        case .payUpFront: period.advance(date, by: 1)
        case .payAsYouGo, .freeTrial: period.advance(date, by: numberOfPeriods)
        }
    }
}
