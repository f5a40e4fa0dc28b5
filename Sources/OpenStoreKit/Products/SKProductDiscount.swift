public import Foundation
import StoreModels

/// A subscription offer of a product: its introductory price or a promotional offer.
public final class SKProductDiscount: NSObject, Sendable {
    /// How the customer pays during the offer, with StoreKit's raw values.
    public enum PaymentMode: UInt, Sendable, Hashable {
        /// A reduced price each period.
        case payAsYouGo = 0
        /// One reduced price up front.
        case payUpFront = 1
        /// Free.
        case freeTrial = 2
    }

    /// Introductory or promotional, with StoreKit's raw values.
    public enum `Type`: UInt, Sendable, Hashable {
        /// The introductory offer.
        case introductory = 0
        /// A promotional (subscription) offer.
        case subscription = 1
    }

    /// The offer price.
    public let price: NSDecimalNumber
    /// The locale to format the price with.
    public let priceLocale: Locale
    /// The offer identifier; `nil` for the introductory offer.
    public let identifier: String?
    /// The length of one offer period.
    public let subscriptionPeriod: SKProductSubscriptionPeriod
    /// How many periods the offer lasts.
    public let numberOfPeriods: Int
    /// How the customer pays.
    public let paymentMode: PaymentMode
    /// Introductory or promotional.
    public let type: `Type`

    init(_ offer: ProductOffer, priceLocale: Locale) {
        self.price = NSDecimalNumber(decimal: offer.price)
        self.priceLocale = priceLocale
        self.identifier = offer.identifier
        self.subscriptionPeriod = SKProductSubscriptionPeriod(offer.period)
        self.numberOfPeriods = offer.numberOfPeriods
        self.paymentMode =
            switch offer.paymentMode {
            case .payAsYouGo: .payAsYouGo
            case .payUpFront: .payUpFront
            case .freeTrial: .freeTrial
            }
        self.type = offer.kind == .introductory ? .introductory : .subscription
    }
}
