public import Foundation
import StoreModels

extension Product {
    /// An offer of a subscription: introductory, promotional or win-back.
    public struct SubscriptionOffer: Equatable, Hashable, Sendable {
        /// The kind of an offer.
        public struct OfferType: RawRepresentable, Equatable, Hashable, Sendable {
            /// The kind's name.
            public let rawValue: String
            /// Creates a kind from its name.
            ///
            /// - Parameter rawValue: The name.
            public init(rawValue: String) { self.rawValue = rawValue }
            /// For customers new to the group.
            public static let introductory = OfferType(rawValue: "introductory")
            /// Signed by the developer's server.
            public static let promotional = OfferType(rawValue: "promotional")
            /// For customers who left.
            public static let winBack = OfferType(rawValue: "winBack")

            /// The kind's name for people, in English: `Introductory Offer`, `Promotional Offer` or
            /// `Win-Back Offer`, as App Store Connect names them; the raw value for another kind.
            public var localizedDescription: String {
                switch self {
                case .introductory: "Introductory Offer"
                case .promotional: "Promotional Offer"
                case .winBack: "Win-Back Offer"
                default: rawValue
                }
            }
        }

        /// How an offer is paid.
        public struct PaymentMode: RawRepresentable, Equatable, Hashable, Sendable {
            /// The mode's name.
            public let rawValue: String
            /// Creates a mode from its name.
            ///
            /// - Parameter rawValue: The name.
            public init(rawValue: String) { self.rawValue = rawValue }
            /// A reduced price each period.
            public static let payAsYouGo = PaymentMode(rawValue: "payAsYouGo")
            /// One reduced price for the whole offer.
            public static let payUpFront = PaymentMode(rawValue: "payUpFront")
            /// Free.
            public static let freeTrial = PaymentMode(rawValue: "freeTrial")

            /// The mode's name for people, in English: `Pay As You Go`, `Pay Up Front` or `Free Trial`, as App Store
            /// Connect names them; the raw value for another mode.
            public var localizedDescription: String {
                switch self {
                case .payAsYouGo: "Pay As You Go"
                case .payUpFront: "Pay Up Front"
                case .freeTrial: "Free Trial"
                default: rawValue
                }
            }
        }

        /// The offer's identifier; `nil` for an introductory offer.
        public let id: String?
        /// The offer's kind.
        public let type: OfferType
        /// The price of each period (or of the whole offer, paid up front).
        public let price: Decimal
        /// ``price`` formatted in the storefront's currency.
        public let displayPrice: String
        /// The length of one period of the offer.
        public let period: Product.SubscriptionPeriod
        /// How many periods.
        public let periodCount: Int
        /// How it is paid.
        public let paymentMode: PaymentMode

        init(_ offer: ProductOffer, currencyCode: String, locale: Locale) {
            id = offer.kind == .introductory ? nil : offer.identifier
            type =
                switch offer.kind {
                case .introductory: .introductory
                case .promotional: .promotional
                case .winBack: .winBack
                // An offer code's offer is no product's `SubscriptionOffer`; the kind keeps its name.
                case .offerCode: OfferType(rawValue: "offerCode")
                }
            price = offer.price
            displayPrice = Product.format(offer.price, currencyCode: currencyCode, locale: locale)
            period = Product.SubscriptionPeriod(offer.period)
            periodCount = offer.numberOfPeriods
            paymentMode =
                switch offer.paymentMode {
                case .payAsYouGo: .payAsYouGo
                case .payUpFront: .payUpFront
                case .freeTrial: .freeTrial
                }
        }
    }
}
