public import Foundation

/// What a customer who opened a subscription's cancellation flow was shown: the backend's real-time choice, the
/// default message of the product in the customer's locale, or nothing (``SimulatedStore/retentionMessaging``).
public struct ShownRetentionMessage: Sendable, Equatable, Codable {
    /// Where the message shown came from.
    public enum Source: String, Sendable, Equatable, Codable {
        /// The backend's answer to the real-time request.
        case realtime
        /// The default message of the product in the customer's locale.
        case defaultMessage = "default"
        /// Nothing was shown: no valid answer and no showable default message.
        case none
    }

    /// The subscription's original transaction.
    public var originalTransactionID: UInt64
    /// The subscription's product.
    public var productID: String
    /// The customer's locale (Apple's `userLocale`).
    public var locale: String
    /// The real-time request's identifier (Apple's `requestIdentifier`).
    public var requestIdentifier: UUID
    /// When the customer opened the flow, on the store's clock.
    public var date: Date
    /// Where the message came from.
    public var source: Source
    /// The message shown, if any.
    public var messageIdentifier: UUID?
    /// The product offered to switch to, when the backend chose an alternate product.
    public var alternateProductID: String?
    /// Whether the backend chose a promotional offer with its message.
    public var offersPromotionalOffer: Bool
    /// Why the backend's answer was not used, when it was not: a `sendAttemptResult` (`TIMED_OUT`, `INVALID_RESPONSE`,
    /// …) or the reason the store refused the choice.
    public var failure: String?

    /// Creates a record.
    public init(
        originalTransactionID: UInt64, productID: String, locale: String, requestIdentifier: UUID, date: Date,
        source: Source, messageIdentifier: UUID? = nil, alternateProductID: String? = nil,
        offersPromotionalOffer: Bool = false, failure: String? = nil
    ) {
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.locale = locale
        self.requestIdentifier = requestIdentifier
        self.date = date
        self.source = source
        self.messageIdentifier = messageIdentifier
        self.alternateProductID = alternateProductID
        self.offersPromotionalOffer = offersPromotionalOffer
        self.failure = failure
    }
}
