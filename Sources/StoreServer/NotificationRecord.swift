#if Server
    /// One Server Notification V2 the server made: its signed payload as sent, and every attempt to deliver it.
    public struct NotificationRecord: Codable, Sendable, Hashable {
        /// One attempt to deliver: when (store time, milliseconds since 1970) and how it went (Apple's
        /// `sendAttemptResult`: `SUCCESS`, `TIMED_OUT`, `NO_RESPONSE`, `UNSUCCESSFUL_HTTP_RESPONSE_CODE`, ...).
        public struct Attempt: Codable, Sendable, Hashable {
            /// When, in store time.
            public var attemptDate: Int64
            /// How it went.
            public var sendAttemptResult: String

            /// Creates an attempt.
            public init(attemptDate: Int64, sendAttemptResult: String) {
                self.attemptDate = attemptDate
                self.sendAttemptResult = sendAttemptResult
            }
        }

        /// The notification's UUID (retries reuse it).
        public var notificationUUID: String
        /// Its `notificationType`.
        public var notificationType: String
        /// Its `subtype`, if any.
        public var subtype: String?
        /// Its `signedDate` (store time, milliseconds).
        public var signedDate: Int64
        /// The JWS sent as `signedPayload`.
        public var signedPayload: String
        /// The original transaction it is about, if any (for Get Notification History's `transactionId`).
        public var originalTransactionID: UInt64?
        /// The token of a test notification.
        public var testNotificationToken: String?
        /// The attempts so far, oldest first (at most six: the first and Apple's five retries).
        public var attempts: [Attempt]
        /// When the next retry is due (store time, milliseconds), or nil when none is.
        public var nextAttemptDate: Int64?

        /// Whether the last attempt succeeded.
        public var isDelivered: Bool { attempts.last?.sendAttemptResult == "SUCCESS" }
    }
#endif
