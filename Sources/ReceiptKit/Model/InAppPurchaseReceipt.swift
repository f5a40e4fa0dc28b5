public import Foundation

/// One in-app purchase in an app receipt (attribute 17 of the payload), with every attribute Apple documents.
///
/// Dates have millisecond precision. Attributes ReceiptKit does not interpret are kept in ``unknownAttributes``.
public struct InAppPurchaseReceipt: Sendable, Hashable {
    /// The number of items purchased (1701, `quantity`).
    public var quantity: Int
    /// The product identifier (1702, `product_id`).
    public var productIdentifier: String
    /// The transaction identifier (1703, `transaction_id`).
    public var transactionIdentifier: String
    /// When the App Store charged the user (1704, `purchase_date`).
    public var purchaseDate: Date
    /// The transaction identifier of the original purchase (1705, `original_transaction_id`).
    public var originalTransactionIdentifier: String?
    /// When the original purchase happened (1706, `original_purchase_date`).
    public var originalPurchaseDate: Date?
    /// The kind of product (1707, undocumented).
    public var productType: InAppProductType?
    /// When the subscription expires (1708, `expires_date`); nil when absent or empty.
    public var subscriptionExpirationDate: Date?
    /// The subscription's web order line item identifier (1711, `web_order_line_item_id`).
    public var webOrderLineItemIdentifier: Int64?
    /// When Apple customer support cancelled (refunded) the transaction (1712, `cancellation_date`).
    public var cancellationDate: Date?
    /// Whether the subscription period is a free trial (1713, `is_trial_period`).
    public var isTrialPeriod: Bool
    /// Whether the subscription period is an introductory offer (1719, `is_in_intro_offer_period`).
    public var isInIntroOfferPeriod: Bool
    /// The subscription offer identifier (1721, `promotional_offer_id`); nil when absent or empty.
    public var promotionalOfferIdentifier: String?
    /// Attributes ReceiptKit does not interpret, ordered by type, then version, then value.
    public var unknownAttributes: [ReceiptAttribute] {
        get { unknownStorage.attributes }
        set { unknownStorage = UnknownAttributes(newValue) }
    }
    /// The compact, canonical form of ``unknownAttributes``.
    var unknownStorage: UnknownAttributes

    /// Creates an in-app purchase receipt.
    ///
    /// - Parameters:
    ///   - quantity: The number of items purchased.
    ///   - productIdentifier: The product identifier.
    ///   - transactionIdentifier: The transaction identifier.
    ///   - purchaseDate: When the App Store charged the user.
    ///   - originalTransactionIdentifier: The transaction identifier of the original purchase.
    ///   - originalPurchaseDate: When the original purchase happened.
    ///   - productType: The kind of product.
    ///   - subscriptionExpirationDate: When the subscription expires.
    ///   - webOrderLineItemIdentifier: The subscription's web order line item identifier.
    ///   - cancellationDate: When the transaction was cancelled (refunded).
    ///   - isTrialPeriod: Whether the period is a free trial.
    ///   - isInIntroOfferPeriod: Whether the period is an introductory offer.
    ///   - promotionalOfferIdentifier: The subscription offer identifier.
    ///   - unknownAttributes: Attributes to carry along uninterpreted.
    public init(
        quantity: Int = 1,
        productIdentifier: String,
        transactionIdentifier: String,
        purchaseDate: Date,
        originalTransactionIdentifier: String? = nil,
        originalPurchaseDate: Date? = nil,
        productType: InAppProductType? = nil,
        subscriptionExpirationDate: Date? = nil,
        webOrderLineItemIdentifier: Int64? = nil,
        cancellationDate: Date? = nil,
        isTrialPeriod: Bool = false,
        isInIntroOfferPeriod: Bool = false,
        promotionalOfferIdentifier: String? = nil,
        unknownAttributes: [ReceiptAttribute] = []
    ) {
        self.quantity = quantity
        self.productIdentifier = productIdentifier
        self.transactionIdentifier = transactionIdentifier
        self.purchaseDate = purchaseDate
        self.originalTransactionIdentifier = originalTransactionIdentifier
        self.originalPurchaseDate = originalPurchaseDate
        self.productType = productType
        self.subscriptionExpirationDate = subscriptionExpirationDate
        self.webOrderLineItemIdentifier = webOrderLineItemIdentifier
        self.cancellationDate = cancellationDate
        self.isTrialPeriod = isTrialPeriod
        self.isInIntroOfferPeriod = isInIntroOfferPeriod
        self.promotionalOfferIdentifier = promotionalOfferIdentifier
        self.unknownStorage = unknownAttributes.isEmpty ? .empty : UnknownAttributes(unknownAttributes)
    }
}
