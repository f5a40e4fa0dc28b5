public import Foundation

/// Why a ``RetentionMessagingChange`` cannot be made; each is one of Apple's errors of the Retention Messaging API.
public enum RetentionMessagingProblem: Sendable, Equatable, Error, CustomStringConvertible {
    /// `ImageAlreadyExistsError`.
    case imageAlreadyExists(UUID)
    /// `ImageNotFoundError`.
    case imageNotFound(UUID)
    /// `ImageInUseError`: a message shows it.
    case imageInUse(UUID, message: UUID)
    /// `MaximumNumberOfImagesReachedError`.
    case maximumImagesReached
    /// `MessageAlreadyExistsError`.
    case messageAlreadyExists(UUID)
    /// `MessageNotFoundError`.
    case messageNotFound(UUID)
    /// `MaximumNumberOfMessagesReachedError`.
    case maximumMessagesReached
    /// `MessageNotApprovedError`.
    case messageNotApproved(UUID)
    /// `ImageNotApprovedError`.
    case imageNotApproved(UUID)
    /// `BadRequestImageSizeError`: a message's image is not a full-size image, or a bullet point's not a
    /// bullet-point image.
    case wrongImageSize(UUID, expected: RetentionMessaging.ImageSize)
    /// `DefaultMessageNotFoundError`.
    case defaultMessageNotFound(productID: String, locale: String)
    /// `InvalidProductId`: not an auto-renewable subscription of the catalog.
    case notASubscription(String)
    /// `TransactionIdNotFound`: no purchased auto-renewable subscription has this original transaction.
    case subscriptionNotFound(UInt64)

    /// What went wrong, in words.
    public var description: String {
        switch self {
        case .imageAlreadyExists(let id): "an image \(id.uuidString.lowercased()) was already uploaded"
        case .imageNotFound(let id): "no image \(id.uuidString.lowercased()) was uploaded"
        case .imageInUse(let id, let message):
            "the image \(id.uuidString.lowercased()) is shown by message \(message.uuidString.lowercased())"
        case .maximumImagesReached: "the app already has \(RetentionMessaging.imageLimit) images"
        case .messageAlreadyExists(let id): "a message \(id.uuidString.lowercased()) was already uploaded"
        case .messageNotFound(let id): "no message \(id.uuidString.lowercased()) was uploaded"
        case .maximumMessagesReached: "the app already has \(RetentionMessaging.messageLimit) messages"
        case .messageNotApproved(let id): "the message \(id.uuidString.lowercased()) is not approved"
        case .imageNotApproved(let id): "the image \(id.uuidString.lowercased()) is not approved"
        case .wrongImageSize(let id, let expected):
            "the image \(id.uuidString.lowercased()) is not of size \(expected.rawValue)"
        case .defaultMessageNotFound(let product, let locale):
            "no default message is configured for \(product) in \(locale)"
        case .notASubscription(let product): "\(product) is not an auto-renewable subscription of the catalog"
        case .subscriptionNotFound(let id): "\(id) is not the original transaction of a purchased subscription"
        }
    }
}
