#if Server
    extension APIError {
        /// `InvalidImageError`.
        public static let invalidImage = APIError(4_000_161, "Invalid request. The image is invalid.")
        /// `HeaderTooLongError`.
        public static let headerTooLong = APIError(4_000_162, "Invalid request. The header text is too long.")
        /// `BodyTooLongError`.
        public static let bodyTooLong = APIError(4_000_163, "Invalid request. The body text is too long.")
        /// `InvalidLocaleError`.
        public static let invalidLocale = APIError(4_000_164, "Invalid request. The locale is invalid.")
        /// `AltTextTooLongError`.
        public static let altTextTooLong = APIError(
            4_000_175, "Invalid request. The alternative text for an image is too long.")
        /// `InvalidPerformanceTestRequestError`.
        public static let invalidPerformanceTestRequest = APIError(
            4_000_211, "Invalid request. The performance test request is invalid.")
        /// `InvalidRequestIdError`.
        public static let invalidRequestId = APIError(4_000_212, "Invalid request. The request ID is invalid.")
        /// `BadRequestRealtimeUrlError`.
        public static let badRequestRealtimeUrl = APIError(4_000_215, "Invalid request. The URL is invalid.")
        /// `BadRequestImageSizeError`.
        public static let badRequestImageSize = APIError(4_000_216, "Invalid request. The image size is invalid.")
        /// `BadRequestTooManyBulletPointsError`.
        public static let badRequestTooManyBulletPoints = APIError(
            4_000_218, "Invalid request. There are too many bullet points.")
        /// `BadRequestBulletPointTextTooLongError`.
        public static let badRequestBulletPointTextTooLong = APIError(
            4_000_219, "Invalid request. The text for a bullet point is too long.")
        /// `BadRequestAboveImageRequiresAnImageError`.
        public static let badRequestAboveImageRequiresAnImage = APIError(
            4_000_224, "Invalid request. The header is placed above an image, but no image is included.")
        /// `MaximumNumberOfImagesReachedError`.
        public static let maximumNumberOfImagesReached = APIError(
            4_030_014, "Forbidden. The maximum number of images has been reached.")
        /// `MaximumNumberOfMessagesReachedError`.
        public static let maximumNumberOfMessagesReached = APIError(
            4_030_016, "Forbidden. The maximum number of messages has been reached.")
        /// `MessageNotApprovedError`.
        public static let messageNotApproved = APIError(4_030_017, "Forbidden. The message is not approved.")
        /// `ImageNotApprovedError`.
        public static let imageNotApproved = APIError(4_030_018, "Forbidden. The image is not approved.")
        /// `ImageInUseError`.
        public static let imageInUse = APIError(4_030_019, "Forbidden. The image is in use by a message.")
        /// `ImageNotFoundError`.
        public static let imageNotFound = APIError(4_040_014, "Image not found.")
        /// `MessageNotFoundError`.
        public static let messageNotFound = APIError(4_040_015, "Message not found.")
        /// `PerformanceTestRunNotFoundError`.
        public static let performanceTestRunNotFound = APIError(4_040_018, "Performance test run not found.")
        /// `DefaultMessageNotFoundError`.
        public static let defaultMessageNotFound = APIError(4_040_020, "Default message not found.")
        /// `RealtimeUrlNotFoundError`.
        public static let realtimeUrlNotFound = APIError(4_040_021, "Realtime URL not found.")
        /// `ImageAlreadyExistsError`.
        public static let imageAlreadyExists = APIError(4_090_000, "The image identifier already exists.")
        /// `MessageAlreadyExistsError`.
        public static let messageAlreadyExists = APIError(4_090_001, "The message identifier already exists.")

    }
#endif
