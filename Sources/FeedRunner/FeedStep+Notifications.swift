extension FeedStep {
    /// An `expect notification ...` expectation, on the Server Notifications V2 a served feed's store sent
    /// (`openstorekit run FEED --serve`).
    public enum NotificationExpectation: Sendable, Hashable {
        /// What a notification is expected to be.
        public struct Pattern: Sendable, Hashable {
            /// Its `notificationType`.
            public var type: String
            /// Its `subtype`; nil expects a notification without one.
            public var subtype: String?
            /// The transaction it carries: this one, or one whose original transaction this is.
            public var reference: Reference?
            /// The product of the transaction it carries.
            public var product: String?
            /// Its `data.status`.
            public var status: Int?

            /// Creates a pattern.
            public init(
                type: String, subtype: String? = nil, reference: Reference? = nil, product: String? = nil,
                status: Int? = nil
            ) {
                self.type = type
                self.subtype = subtype
                self.reference = reference
                self.product = product
                self.status = status
            }
        }

        /// `expect notification TYPE [SUBTYPE] [for REF | product PRODUCT] [status N]`: the next notification not yet
        /// matched is this one, every signature in it verified, and its receiver accepted it.
        case next(Pattern)
        /// `expect notifications N`: N notifications were sent so far, matched or not.
        case count(Int)
        /// `expect no notification`: every notification sent so far was matched by an `expect notification`.
        case none
    }
}
