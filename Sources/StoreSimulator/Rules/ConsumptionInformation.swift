/// What a developer's server told the App Store about a consumable or other in-app purchase a customer asked to have
/// refunded: the App Store Server API's Send Consumption Information (version 2, `ConsumptionRequest`), with Apple's
/// field names and values, or Send Consumption Information V1 (``version1``, with the version 2 fields it maps to).
///
/// The store keeps the last one sent for each transaction (``SimulatedStore/setConsumptionInformation(_:forTransaction:)``),
/// and a durable store keeps it in its state file.
public struct ConsumptionInformation: Codable, Sendable, Hashable {
    /// Whether the content was delivered, and if not, why (`deliveryStatus`).
    public enum DeliveryStatus: String, Codable, Sendable, Hashable, CaseIterable {
        /// `DELIVERED`: delivered and working.
        case delivered = "DELIVERED"
        /// `UNDELIVERED_QUALITY_ISSUE`: not delivered, because of a quality issue.
        case undeliveredQualityIssue = "UNDELIVERED_QUALITY_ISSUE"
        /// `UNDELIVERED_WRONG_ITEM`: the wrong item was delivered.
        case undeliveredWrongItem = "UNDELIVERED_WRONG_ITEM"
        /// `UNDELIVERED_SERVER_OUTAGE`: not delivered, because of a server outage.
        case undeliveredServerOutage = "UNDELIVERED_SERVER_OUTAGE"
        /// `UNDELIVERED_OTHER`: not delivered, for another reason.
        case undeliveredOther = "UNDELIVERED_OTHER"
    }

    /// What the developer would like the App Store to decide (`refundPreference`).
    public enum RefundPreference: String, Codable, Sendable, Hashable, CaseIterable {
        /// `DECLINE`: decline the refund.
        case decline = "DECLINE"
        /// `GRANT_FULL`: grant a full refund.
        case grantFull = "GRANT_FULL"
        /// `GRANT_PRORATED`: grant a prorated refund.
        case grantProrated = "GRANT_PRORATED"
    }

    /// The values `consumptionPercentage` may take: thousandths of a percent, 0 to 100,000.
    public static let percentageRange = 0...100_000

    /// Whether the customer consented to sending the information (`customerConsented`); Apple accepts only `true`.
    public var customerConsented: Bool
    /// Whether the app offered a free sample or trial of the content (`sampleContentProvided`).
    public var sampleContentProvided: Bool
    /// Whether the content was delivered (`deliveryStatus`).
    public var deliveryStatus: DeliveryStatus
    /// How much of the content the customer consumed, in thousandths of a percent (`consumptionPercentage`); never
    /// for an auto-renewable subscription.
    public var consumptionPercentage: Int?
    /// What the developer would like the App Store to decide (`refundPreference`).
    public var refundPreference: RefundPreference?
    /// The request as sent, when it came through Send Consumption Information V1 (`ConsumptionRequestV1`); `nil` for
    /// version 2. The fields above are then what it maps to (decision 105).
    public var version1: ConsumptionInformationV1?

    /// Creates consumption information.
    ///
    /// - Parameters:
    ///   - customerConsented: Whether the customer consented.
    ///   - sampleContentProvided: Whether a sample or trial was offered.
    ///   - deliveryStatus: Whether the content was delivered.
    ///   - consumptionPercentage: How much was consumed, in ``percentageRange``.
    ///   - refundPreference: What the developer would like decided.
    public init(
        customerConsented: Bool = true, sampleContentProvided: Bool, deliveryStatus: DeliveryStatus,
        consumptionPercentage: Int? = nil, refundPreference: RefundPreference? = nil
    ) {
        self.customerConsented = customerConsented
        self.sampleContentProvided = sampleContentProvided
        self.deliveryStatus = deliveryStatus
        self.consumptionPercentage = consumptionPercentage
        self.refundPreference = refundPreference
    }

    /// Creates the information a Send Consumption Information V1 request carries: the request as sent
    /// (``version1``), and the version 2 fields it maps to (decision 105): its consent and sample flags, its delivery
    /// status (``ConsumptionInformationV1/mappedDeliveryStatus``) and refund preference
    /// (``ConsumptionInformationV1/mappedRefundPreference``), no consumption percentage.
    ///
    /// - Parameter version1: The request.
    public init(_ version1: ConsumptionInformationV1) {
        self.init(
            customerConsented: version1.customerConsented, sampleContentProvided: version1.sampleContentProvided,
            deliveryStatus: version1.mappedDeliveryStatus, refundPreference: version1.mappedRefundPreference)
        self.version1 = version1
    }
}
