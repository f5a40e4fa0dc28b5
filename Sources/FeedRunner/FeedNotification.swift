/// One Server Notification V2 as a feed run checks it: what it says (decoded from its verified `signedPayload` and
/// `signedTransactionInfo`), whether every signature in it verified, and whether its receiver accepted it.
public struct FeedNotification: Sendable, Hashable {
    /// `notificationType`, such as `DID_RENEW`.
    public var type: String
    /// `subtype`, such as `BILLING_RECOVERY`, or nil.
    public var subtype: String?
    /// The `transactionId` of `data.signedTransactionInfo`, if it carries one.
    public var transactionID: UInt64?
    /// The `originalTransactionId` of `data.signedTransactionInfo`, if it carries one.
    public var originalTransactionID: UInt64?
    /// The `productId` of `data.signedTransactionInfo` (or of `summary`), if any.
    public var productID: String?
    /// `data.status`: 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked; nil when absent.
    public var status: Int?
    /// `signedDate`, in milliseconds since 1970 on the store's clock.
    public var signedDate: Int64
    /// Why the notification does not verify (its signature, chain, environment or bundle identifier, or those of its
    /// `signedTransactionInfo` or `signedRenewalInfo`); nil when everything in it verified.
    public var verificationFailure: String?
    /// Whether the receiver accepted it (answered 200 to 206).
    public var accepted: Bool
    /// How its attempts went (Apple's `sendAttemptResult` values, oldest first).
    public var attempts: [String]

    /// Creates a notification.
    public init(
        type: String, subtype: String? = nil, transactionID: UInt64? = nil, originalTransactionID: UInt64? = nil,
        productID: String? = nil, status: Int? = nil, signedDate: Int64 = 0, verificationFailure: String? = nil,
        accepted: Bool = true, attempts: [String] = []
    ) {
        self.type = type
        self.subtype = subtype
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.status = status
        self.signedDate = signedDate
        self.verificationFailure = verificationFailure
        self.accepted = accepted
        self.attempts = attempts
    }

    /// `TYPE` or `TYPE/SUBTYPE`.
    public var kind: String { subtype.map { "\(type)/\($0)" } ?? type }

    /// `TYPE/SUBTYPE for PRODUCT (transaction ID) status N`, for messages.
    public var summary: String {
        var text = kind
        if let productID { text += " for \(productID)" }
        if let transactionID { text += " (transaction \(transactionID))" }
        if let status { text += " status \(status)" }
        return text
    }
}
