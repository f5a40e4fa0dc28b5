/// How a customer pays for a subscription offer.
public enum OfferPaymentMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// A reduced price each period for a number of periods.
    case payAsYouGo
    /// One reduced price paid up front for the whole offer.
    case payUpFront
    /// Nothing to pay during the offer.
    case freeTrial = "free"
}
