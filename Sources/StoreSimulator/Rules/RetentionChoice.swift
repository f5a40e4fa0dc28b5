public import Foundation

/// What a backend chose in its answer to a real-time request (Apple's `RealtimeResponseBody`): a message, a message
/// with a product to switch to, or a message with a promotional offer.
public enum RetentionChoice: Sendable, Equatable, Codable {
    /// A text message (Apple's `message`).
    case message(UUID)
    /// A switch-plan message (Apple's `alternateProduct`).
    case alternateProduct(messageIdentifier: UUID, productID: String)
    /// A message with a promotional offer (Apple's `promotionalOffer`); the offer's signature is not checked here.
    case promotionalOffer(messageIdentifier: UUID)

    /// The message the choice shows.
    public var messageIdentifier: UUID {
        switch self {
        case .message(let id), .alternateProduct(let id, _), .promotionalOffer(let id): id
        }
    }
}
