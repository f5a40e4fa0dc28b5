#if Server
    /// A Server Notification V2 as a receiver read it: what its verified `signedPayload` says, or why it does not
    /// verify.
    public struct ReceivedNotification: Sendable, Hashable {
        /// `notificationType` (empty when the payload could not be read).
        public var type: String
        /// `subtype`, if any.
        public var subtype: String?
        /// `notificationUUID` (a retry repeats it).
        public var notificationUUID: String?
        /// `signedDate`, in milliseconds since 1970.
        public var signedDate: Int64
        /// `data.status`, if present.
        public var status: Int?
        /// The `transactionId` of `data.signedTransactionInfo`, if any.
        public var transactionID: UInt64?
        /// The `originalTransactionId` of `data.signedTransactionInfo`, if any.
        public var originalTransactionID: UInt64?
        /// The `productId` of `data.signedTransactionInfo`, or of `summary`.
        public var productID: String?
        /// Why it does not verify (the payload, its `signedTransactionInfo` or its `signedRenewalInfo`: signature,
        /// chain, environment, bundle identifier, form); nil when everything in it verified.
        public var verificationFailure: String?

        /// Creates a notification as read.
        public init(
            type: String, subtype: String? = nil, notificationUUID: String? = nil, signedDate: Int64 = 0,
            status: Int? = nil, transactionID: UInt64? = nil, originalTransactionID: UInt64? = nil,
            productID: String? = nil, verificationFailure: String? = nil
        ) {
            self.type = type
            self.subtype = subtype
            self.notificationUUID = notificationUUID
            self.signedDate = signedDate
            self.status = status
            self.transactionID = transactionID
            self.originalTransactionID = originalTransactionID
            self.productID = productID
            self.verificationFailure = verificationFailure
        }
    }
#endif
