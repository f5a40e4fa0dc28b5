#if Server
    import StoreModels

    /// An error of the App Store Server API: Apple's numeric code, its message and the HTTP status it comes with
    /// (the code's first three digits), answered as `{"errorCode": …, "errorMessage": "…"}`.
    public struct APIError: Error, Sendable, Hashable {
        /// Apple's code, such as 4040010.
        public let errorCode: Int64
        /// Apple's message.
        public let errorMessage: String

        /// Creates an error with Apple's code and message.
        public init(_ errorCode: Int64, _ errorMessage: String) {
            self.errorCode = errorCode
            self.errorMessage = errorMessage
        }

        /// The HTTP status: the code's first three digits.
        public var status: Int { Int(errorCode / 10_000) }

        /// The JSON body.
        public var body: [UInt8] {
            var writer = JSONObjectWriter()
            writer.add("errorCode", Int(errorCode))
            writer.add("errorMessage", .string(errorMessage))
            return Array(writer.jsonString.utf8)
        }

        /// The HTTP response.
        var response: HTTPResponse { .json(status, body) }

        /// `GeneralBadRequest`.
        public static let generalBadRequest = APIError(4_000_000, "Invalid request.")
        /// `InvalidAppIdentifier`.
        public static let invalidAppIdentifier = APIError(4_000_002, "Invalid request app identifier.")
        /// `InvalidRequestRevision`.
        public static let invalidRequestRevision = APIError(4_000_005, "Invalid request revision.")
        /// `InvalidTransactionId`.
        public static let invalidTransactionId = APIError(4_000_006, "Invalid transaction id.")
        /// `InvalidOriginalTransactionId`.
        public static let invalidOriginalTransactionId = APIError(4_000_008, "Invalid original transaction id.")
        /// `InvalidExtendByDays`.
        public static let invalidExtendByDays = APIError(4_000_009, "Invalid extend by days value.")
        /// `InvalidExtendReasonCode`.
        public static let invalidExtendReasonCode = APIError(4_000_010, "Invalid extend reason code.")
        /// `InvalidRequestIdentifier`.
        public static let invalidRequestIdentifier = APIError(4_000_011, "Invalid request identifier.")
        /// `StartDateTooFarInPast`.
        public static let startDateTooFarInPast = APIError(
            4_000_012, "Invalid request. The start date is earlier than the allowed start date.")
        /// `StartDateAfterEndDate`.
        public static let startDateAfterEndDate = APIError(
            4_000_013, "Invalid request. The end date precedes the start date or the dates are the same.")
        /// `InvalidPaginationToken`.
        public static let invalidPaginationToken = APIError(
            4_000_014, "Invalid request. The pagination token is invalid.")
        /// `InvalidStartDate`.
        public static let invalidStartDate = APIError(
            4_000_015, "Invalid request. The start date is not a timestamp value in milliseconds.")
        /// `InvalidEndDate`.
        public static let invalidEndDate = APIError(
            4_000_016, "Invalid request. The end date is not a timestamp value in milliseconds.")
        /// `PaginationTokenExpired`.
        public static let paginationTokenExpired = APIError(
            4_000_017, "Invalid request. The pagination token is expired.")
        /// `InvalidNotificationType`.
        public static let invalidNotificationType = APIError(
            4_000_018, "Invalid request. The notification type or subtype is invalid.")
        /// `MultipleFiltersSupplied`.
        public static let multipleFiltersSupplied = APIError(
            4_000_019, "Invalid request. More than one filter was supplied.")
        /// `InvalidTestNotificationToken`.
        public static let invalidTestNotificationToken = APIError(
            4_000_020, "Invalid request. The test notification token is invalid.")
        /// `InvalidSort`.
        public static let invalidSort = APIError(4_000_021, "Invalid request. The sort parameter is invalid.")
        /// `InvalidProductType`.
        public static let invalidProductType = APIError(
            4_000_022, "Invalid request. The product type parameter is invalid.")
        /// `InvalidProductId`.
        public static let invalidProductId = APIError(
            4_000_023, "Invalid request. The product id parameter is invalid.")
        /// `InvalidSubscriptionGroupIdentifier`.
        public static let invalidSubscriptionGroupIdentifier = APIError(
            4_000_024, "Invalid request. The subscription group identifier parameter is invalid.")
        /// `InvalidExcludeRevoked`.
        public static let invalidExcludeRevoked = APIError(
            4_000_025, "Invalid request. The exclude revoked parameter is invalid.")
        /// `InvalidInAppOwnershipType`.
        public static let invalidInAppOwnershipType = APIError(
            4_000_026, "Invalid request. The in-app ownership type parameter is invalid.")
        /// `InvalidEmptyStorefrontCountryCodeList`.
        public static let invalidEmptyStorefrontCountryCodeList = APIError(
            4_000_027, "Invalid request. The storefront country code list is empty.")
        /// `InvalidStorefrontCountryCode`.
        public static let invalidStorefrontCountryCode = APIError(
            4_000_028, "Invalid request. A storefront country code is invalid.")
        /// `InvalidRevoked`.
        public static let invalidRevoked = APIError(4_000_030, "Invalid request. The revoked parameter is invalid.")
        /// `InvalidStatus`.
        public static let invalidStatus = APIError(4_000_031, "Invalid request. The status parameter is invalid.")
        /// `InvalidAccountTenureError`.
        public static let invalidAccountTenure = APIError(
            4_000_032, "Invalid request. The account tenure field is invalid.")
        /// `InvalidAppAccountTokenError`.
        public static let invalidAppAccountToken = APIError(
            4_000_033, "Invalid request. The app account token field must be a valid UUID or an empty string.")
        /// `InvalidConsumptionStatusError`.
        public static let invalidConsumptionStatus = APIError(
            4_000_034, "Invalid request. The consumption status field is invalid.")
        /// `InvalidCustomerConsented`.
        public static let invalidCustomerConsented = APIError(
            4_000_035,
            "Invalid request. The customer consented field is required and must indicate the customer consented.")
        /// `InvalidDeliveryStatus`.
        public static let invalidDeliveryStatus = APIError(
            4_000_036, "Invalid request. The delivery status field is invalid.")
        /// `InvalidLifetimeDollarsPurchasedError`.
        public static let invalidLifetimeDollarsPurchased = APIError(
            4_000_037, "Invalid request. The lifetime dollars purchased field is invalid.")
        /// `InvalidLifetimeDollarsRefundedError`.
        public static let invalidLifetimeDollarsRefunded = APIError(
            4_000_038, "Invalid request. The lifetime dollars refunded field is invalid.")
        /// `InvalidPlatformError`.
        public static let invalidPlatform = APIError(4_000_039, "Invalid request. The platform field is invalid.")
        /// `InvalidPlayTimeError`.
        public static let invalidPlayTime = APIError(4_000_040, "Invalid request. The play time field is invalid.")
        /// `InvalidSampleContentProvided`.
        public static let invalidSampleContentProvided = APIError(
            4_000_041, "Invalid request. The sample content provided field is invalid.")
        /// `InvalidUserStatusError`.
        public static let invalidUserStatus = APIError(
            4_000_042, "Invalid request. The user status field is invalid.")
        /// `InvalidRefundPreference`.
        public static let invalidRefundPreference = APIError(
            4_000_044, "Invalid request. The refund preference field is invalid.")
        /// `InvalidTransactionTypeNotSupported`.
        public static let invalidTransactionTypeNotSupported = APIError(
            4_000_047, "The transaction id doesn't represent a supported in-app purchase type.")
        /// `InvalidAppAccountTokenUUIDError`.
        public static let invalidAppAccountTokenUUID = APIError(
            4_000_183, "Invalid request. The app account token field must be a valid UUID.")
        /// `FamilyTransactionNotSupportedError`.
        public static let familyTransactionNotSupported = APIError(
            4_000_185, "Invalid request. Family Sharing transactions aren't supported by this endpoint.")
        /// `TransactionIdIsNotOriginalTransactionIdError`.
        public static let transactionIdIsNotOriginalTransactionId = APIError(
            4_000_187, "Invalid request. The transaction ID is not an original transaction ID.")
        /// `ConsumptionPercentageAutoRenewableSubscription`.
        public static let consumptionPercentageAutoRenewableSubscription = APIError(
            4_000_209, "Invalid request. The consumption percentage doesn't apply to auto-renewable subscriptions.")
        /// `SubscriptionExtensionIneligible`.
        public static let subscriptionExtensionIneligible = APIError(
            4_030_004, "Forbidden - subscription state ineligible for extension.")
        /// `SubscriptionMaxExtension`.
        public static let subscriptionMaxExtension = APIError(
            4_030_005, "Forbidden - subscription has reached maximum extension count.")
        /// `AppNotFound`.
        public static let appNotFound = APIError(4_040_003, "App not found.")
        /// `OriginalTransactionIdNotFound`.
        public static let originalTransactionIdNotFound = APIError(4_040_005, "Original transaction id not found.")
        /// `ServerNotificationURLNotFound`.
        public static let serverNotificationURLNotFound = APIError(
            4_040_007,
            "No App Store Server Notification URL found for provided app. Check that a URL is configured in App Store Connect for this environment."
        )
        /// `TestNotificationNotFound`.
        public static let testNotificationNotFound = APIError(
            4_040_008,
            "Either the test notification token is expired or the notification and status are not yet available.")
        /// `StatusRequestNotFound`.
        public static let statusRequestNotFound = APIError(
            4_040_009,
            "The server didn't find a subscription-renewal-date extension request for this requestIdentifier and productId combination."
        )
        /// `TransactionIdNotFound`.
        public static let transactionIdNotFound = APIError(4_040_010, "Transaction id not found.")
        /// `RateLimitExceededError`.
        public static let rateLimitExceeded = APIError(4_290_000, "Rate limit exceeded.")
        /// `GeneralInternal`.
        public static let generalInternal = APIError(5_000_000, "An unknown error occurred.")
    }
#endif
