public import Foundation

/// What a developer set up for Apple's Retention Messaging API, and what the store showed customers who opened the
/// cancellation flow of a subscription: a fact of the app, kept by the store (and in its state file).
///
/// Images and messages have Apple's review states; the store approves each at once when it is uploaded, and a test
/// can reject it or put it back to pending (docs/decisions.md 100). Change it with
/// ``SimulatedStore/changeRetentionMessaging(_:)``; read it with ``SimulatedStore/retentionMessaging``.
public struct RetentionMessaging: Sendable, Equatable, Codable {
    /// Apple's review state of an image or a message (`imageState`, `messageState`).
    public enum ReviewState: String, Sendable, Equatable, Codable, CaseIterable {
        /// Waiting for review.
        case pending = "PENDING"
        /// Approved: it can be shown.
        case approved = "APPROVED"
        /// Rejected: it is never shown.
        case rejected = "REJECTED"
    }

    /// Apple's size of an image (`imageSize`).
    public enum ImageSize: String, Sendable, Equatable, Codable, CaseIterable {
        /// An image shown with a message: 3840 pixels wide, 160 to 2160 pixels high.
        case fullSize = "FULL_SIZE"
        /// An image shown as a bullet point's icon.
        case bulletPoint = "BULLET_POINT"
    }

    /// An uploaded image: its identifier, size and review state (the pixels are checked, not kept).
    public struct Image: Sendable, Equatable, Codable {
        /// The developer's identifier of the image.
        public var identifier: UUID
        /// Its size.
        public var size: ImageSize
        /// Its review state.
        public var state: ReviewState

        /// Creates an image.
        public init(identifier: UUID, size: ImageSize, state: ReviewState = .approved) {
            self.identifier = identifier
            self.size = size
            self.state = state
        }
    }

    /// An image a message shows, with its alternative text (Apple's `UploadMessageImage`, and a `BulletPoint`'s).
    public struct ImageReference: Sendable, Equatable, Codable {
        /// The image's identifier.
        public var imageIdentifier: UUID
        /// Its alternative text, at most ``RetentionMessaging/altTextLimit`` characters.
        public var altText: String

        /// Creates a reference.
        public init(imageIdentifier: UUID, altText: String) {
            self.imageIdentifier = imageIdentifier
            self.altText = altText
        }
    }

    /// A bullet point of a message (Apple's `BulletPoint`).
    public struct BulletPoint: Sendable, Equatable, Codable {
        /// Its text, at most ``RetentionMessaging/headerLimit`` characters.
        public var text: String
        /// Its icon.
        public var image: ImageReference

        /// Creates a bullet point.
        public init(text: String, image: ImageReference) {
            self.text = text
            self.image = image
        }
    }

    /// An uploaded message (Apple's `UploadMessageRequestBody`) with its review state.
    public struct Message: Sendable, Equatable, Codable {
        /// The developer's identifier of the message.
        public var identifier: UUID
        /// The header, at most ``RetentionMessaging/headerLimit`` characters.
        public var header: String
        /// The body, at most ``RetentionMessaging/bodyLimit`` characters.
        public var body: String
        /// The image shown with it, if any.
        public var image: ImageReference?
        /// Apple's `headerPosition` (`ABOVE_BODY`, `ABOVE_IMAGE`), if given.
        public var headerPosition: String?
        /// Its bullet points, at most ``RetentionMessaging/bulletPointLimit``.
        public var bulletPoints: [BulletPoint]
        /// Its review state.
        public var state: ReviewState

        /// Creates a message.
        public init(
            identifier: UUID, header: String, body: String, image: ImageReference? = nil,
            headerPosition: String? = nil, bulletPoints: [BulletPoint] = [], state: ReviewState = .approved
        ) {
            self.identifier = identifier
            self.header = header
            self.body = body
            self.image = image
            self.headerPosition = headerPosition
            self.bulletPoints = bulletPoints
            self.state = state
        }

        /// The identifiers of every image the message shows.
        public var imageIdentifiers: [UUID] {
            (image.map { [$0.imageIdentifier] } ?? []) + bulletPoints.map(\.image.imageIdentifier)
        }
    }

    /// The default message of a product in a locale.
    public struct DefaultMessage: Sendable, Equatable, Codable {
        /// The product.
        public var productID: String
        /// The locale, as Apple's `userLocale` names it (`en-US`).
        public var locale: String
        /// The message shown.
        public var messageIdentifier: UUID

        /// Creates a default message.
        public init(productID: String, locale: String, messageIdentifier: UUID) {
            self.productID = productID
            self.locale = locale
            self.messageIdentifier = messageIdentifier
        }
    }

    /// Apple's limit on the images of an app.
    public static let imageLimit = 2000
    /// The store's limit on the messages of an app (docs/decisions.md 100).
    public static let messageLimit = 2000
    /// Apple's limit on a header and a bullet point's text, in characters.
    public static let headerLimit = 66
    /// Apple's limit on a body, in characters.
    public static let bodyLimit = 144
    /// Apple's limit on alternative text, in characters.
    public static let altTextLimit = 150
    /// Apple's limit on a message's bullet points.
    public static let bulletPointLimit = 5
    /// Apple's limit on the real-time URL, in characters.
    public static let realtimeURLLimit = 256

    /// The images, in upload order.
    public internal(set) var images: [Image] = []
    /// The messages, in upload order.
    public internal(set) var messages: [Message] = []
    /// The default messages, in the order they were configured.
    public internal(set) var defaultMessages: [DefaultMessage] = []
    /// The URL of the developer's Get Retention Message endpoint, if configured.
    public internal(set) var realtimeURL: String?
    /// What customers were shown, oldest first. Not part of this value's JSON: a state file keeps each in a row of its
    /// own, written once, so that what a compaction writes does not grow with it.
    public internal(set) var shown: [ShownRetentionMessage] = []
    /// The performance tests run, oldest first.
    public internal(set) var performanceTests: [RetentionPerformanceTest] = []

    /// Nothing set up.
    public init() {}

    private enum CodingKeys: String, CodingKey {
        case images, messages, defaultMessages, realtimeURL, shown, performanceTests
    }

    /// Decodes what a state file's row holds; `shown` is read when present, as rows written before it moved to a
    /// table of its own hold it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        images = try container.decode([Image].self, forKey: .images)
        messages = try container.decode([Message].self, forKey: .messages)
        defaultMessages = try container.decode([DefaultMessage].self, forKey: .defaultMessages)
        realtimeURL = try container.decodeIfPresent(String.self, forKey: .realtimeURL)
        shown = try container.decodeIfPresent([ShownRetentionMessage].self, forKey: .shown) ?? []
        performanceTests = try container.decode([RetentionPerformanceTest].self, forKey: .performanceTests)
    }

    /// Encodes everything but ``shown``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(images, forKey: .images)
        try container.encode(messages, forKey: .messages)
        try container.encode(defaultMessages, forKey: .defaultMessages)
        try container.encodeIfPresent(realtimeURL, forKey: .realtimeURL)
        try container.encode(performanceTests, forKey: .performanceTests)
    }

    /// The image with an identifier.
    public func image(_ identifier: UUID) -> Image? { images.first { $0.identifier == identifier } }

    /// The message with an identifier.
    public func message(_ identifier: UUID) -> Message? { messages.first { $0.identifier == identifier } }

    /// The default message of a product in a locale.
    public func defaultMessage(productID: String, locale: String) -> DefaultMessage? {
        defaultMessages.first { $0.productID == productID && $0.locale == locale }
    }

    /// The performance test with a request identifier.
    public func performanceTest(_ requestID: String) -> RetentionPerformanceTest? {
        performanceTests.first { $0.requestID == requestID }
    }

    /// Whether a message can be shown: it and every image it shows are approved.
    public func isShowable(_ identifier: UUID) -> Bool {
        guard let message = message(identifier), message.state == .approved else { return false }
        return message.imageIdentifiers.allSatisfy { image($0)?.state == .approved }
    }
}
