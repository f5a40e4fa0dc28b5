import Synchronization

/// Where the payment queues of a feed run leave the exceptions StoreKit raises for programming errors (finishing a
/// purchasing or deferred transaction), through their `programmingErrorHandler`, until the run takes them.
final class FeedExceptionInbox: Sendable {
    private let messages = Mutex<[String]>([])

    /// Leaves a message.
    func post(_ message: String) {
        messages.withLock { $0.append(message) }
    }

    /// Takes every message left so far, oldest first.
    func take() -> [String] {
        messages.withLock { messages in
            defer { messages.removeAll() }
            return messages
        }
    }
}
