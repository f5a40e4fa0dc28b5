public import Foundation

/// A change to an app's Retention Messaging (``RetentionMessaging``): what the Retention Messaging API's endpoints and
/// a test's controls do, and a customer opening a subscription's cancellation flow. Applied by
/// ``SimulatedStore/changeRetentionMessaging(_:)`` (``StoreOperation/retentionMessaging(_:)``).
public enum RetentionMessagingChange: Sendable, Equatable, Codable {
    /// Upload Image: a new image, approved at once.
    case uploadImage(UUID, size: RetentionMessaging.ImageSize)
    /// Delete Image.
    case deleteImage(UUID)
    /// Upload Message: a new message, approved at once (its `state` is ignored).
    case uploadMessage(RetentionMessaging.Message)
    /// Delete Message.
    case deleteMessage(UUID)
    /// A test's review of an image or a message: its new state.
    case review(UUID, state: RetentionMessaging.ReviewState)
    /// Configure Default Message (a message identifier) or Delete Default Message (nil).
    case setDefaultMessage(productID: String, locale: String, messageIdentifier: UUID?)
    /// Configure Realtime URL (a URL) or Delete Realtime URL (nil).
    case setRealtimeURL(String?)
    /// A customer opened the cancellation flow of a subscription: the store shows the backend's choice when it is
    /// valid, else the product's default message in the locale, else nothing, and records it. `failure` tells why
    /// the backend gave no choice (a `sendAttemptResult`, or nil when no real-time URL is configured).
    case openCancellationFlow(
        originalTransactionID: UInt64, locale: String, requestIdentifier: UUID, choice: RetentionChoice?,
        failure: String?)
    /// A performance test was run.
    case recordPerformanceTest(RetentionPerformanceTest)
}
