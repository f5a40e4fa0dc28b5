import Foundation
import Synchronization

extension SimulatedStore {
    /// The app's Retention Messaging: images, messages, default messages, the real-time URL, what customers were
    /// shown and the performance tests run.
    public var retentionMessaging: RetentionMessaging {
        state.withLock { $0.retentionMessaging }
    }

    /// Why `change` cannot be made to the app's Retention Messaging as it stands, or nil when it can: what the
    /// Retention Messaging API answers with Apple's error.
    public func retentionMessagingProblem(_ change: RetentionMessagingChange) -> RetentionMessagingProblem? {
        state.withLock { $0.retentionMessagingProblem(change) }
    }

    /// Makes a change to the app's Retention Messaging; a durable store records it in its journal.
    ///
    /// - Throws: `unknownTransaction` when a cancellation flow names no purchased subscription's original
    ///   transaction; `invalidAction` for any other ``RetentionMessagingProblem``.
    public func changeRetentionMessaging(_ change: RetentionMessagingChange) throws(StoreSimulatorError) {
        journal?.begin(.operation(.retentionMessaging(change)))
        defer { journal?.end() }
        let now = self.now
        try state.withLock { state throws(StoreSimulatorError) in
            try state.changeRetentionMessaging(change, now: now)
        }
    }
}
