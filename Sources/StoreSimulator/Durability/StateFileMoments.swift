package import Synchronization

/// The moments when a durable store starts rewriting its state file, told to an observer: for crash tests that kill a
/// process at those moments (`openstorekit crash-workload` prints them). Nothing is told while no observer is set.
package enum StateFileMoments {
    /// A moment.
    package enum Moment: String, Sendable {
        /// A file of format 1 was backed up and its migration's transaction is about to be written.
        case migrating
        /// A compaction's transaction (the changed rows, the journal entries they include) is about to be written.
        case compacting
    }

    /// Told each moment, on the thread of the store that reaches it.
    package static let observer = Mutex<(@Sendable (Moment) -> Void)?>(nil)

    /// Tells the observer, if any.
    static func reach(_ moment: Moment) {
        guard let observer = observer.withLock({ $0 }) else { return }
        observer(moment)
    }
}
