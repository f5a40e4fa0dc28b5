public import Foundation

extension Product {
    /// Why a purchase was refused.
    public enum PurchaseError: Error, Equatable, Hashable, Sendable, LocalizedError {
        /// The quantity is outside 1...10.
        case invalidQuantity
        /// The product is not sold (unknown, or not in this storefront).
        case productUnavailable
        /// The account may not make payments.
        case purchaseNotAllowed
        /// The customer may not have the offer.
        case ineligibleForOffer
        /// The product has no offer with that identifier.
        case invalidOfferIdentifier
        /// The offer's price is not valid.
        case invalidOfferPrice
        /// The offer's signature does not verify.
        case invalidOfferSignature
        /// The offer lacks a key identifier, nonce, signature or timestamp.
        case missingOfferParameters

        /// A description for people.
        public var errorDescription: String? {
            switch self {
            case .invalidQuantity: "The quantity is not valid."
            case .productUnavailable: "The product is not available."
            case .purchaseNotAllowed: "Purchases are not allowed."
            case .ineligibleForOffer: "The customer is not eligible for the offer."
            case .invalidOfferIdentifier: "The offer identifier is not valid."
            case .invalidOfferPrice: "The offer price is not valid."
            case .invalidOfferSignature: "The offer signature is not valid."
            case .missingOfferParameters: "The offer lacks parameters."
            }
        }
    }
}
