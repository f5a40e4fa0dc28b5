public import Foundation

/// A subscription offer: the introductory offer, or a promotional, win-back or offer-code offer with an identifier.
public struct ProductOffer: Sendable, Hashable, Codable {
    /// Whether an offer is a product's introductory offer, a promotional one or a win-back one.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The introductory offer; at most one per subscription group per customer.
        case introductory
        /// A promotional offer, applied with a signed `SKPaymentDiscount`.
        case promotional
        /// A win-back offer, for customers whose subscription lapsed (StoreKit 2's `winBackOffer(_:)`).
        case winBack
        /// An offer code's offer, redeemed with a code; its identifier is the offer's reference name (StoreKit Test's
        /// `codeOffer(referenceName:)`).
        case offerCode
    }

    /// The offer identifier (promotional and win-back offers, the reference name of an offer code's offer); `nil` for
    /// the introductory offer.
    public let identifier: String?
    /// Introductory, promotional, win-back or an offer code's.
    public let kind: Kind
    /// How the customer pays during the offer.
    public let paymentMode: OfferPaymentMode
    /// The price per period (pay as you go), for the whole offer (pay up front), or zero (free trial).
    public let price: Decimal
    /// The length of one offer period.
    public let period: SubscriptionPeriod
    /// How many periods the offer lasts.
    public let numberOfPeriods: Int
    /// Who may redeem a win-back offer; `nil` for other offers.
    public let winBackEligibility: WinBackEligibility?
    /// Who may redeem an offer code's offer; `nil` for other offers (and in catalogs stored before the store had it).
    public let offerCodeEligibility: OfferCodeEligibility?

    /// Creates an offer.
    public init(
        identifier: String?,
        kind: Kind,
        paymentMode: OfferPaymentMode,
        price: Decimal,
        period: SubscriptionPeriod,
        numberOfPeriods: Int,
        winBackEligibility: WinBackEligibility? = nil,
        offerCodeEligibility: OfferCodeEligibility? = nil
    ) {
        self.identifier = identifier
        self.kind = kind
        self.paymentMode = paymentMode
        self.price = price
        self.period = period
        self.numberOfPeriods = numberOfPeriods
        self.winBackEligibility = winBackEligibility
        self.offerCodeEligibility = offerCodeEligibility
    }

    /// The date the offer ends if it starts at `date`.
    public func end(startingAt date: Date) -> Date {
        switch paymentMode {
        case .payUpFront: period.advance(date, by: 1)
        case .payAsYouGo, .freeTrial: period.advance(date, by: numberOfPeriods)
        }
    }
}
