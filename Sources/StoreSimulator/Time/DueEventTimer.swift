import Dispatch

/// The dispatch timer that handles a store's due subscription events in real-time runs; cancelled when dropped.
final class DueEventTimer: @unchecked Sendable {
    // @unchecked: the timer source is only created, resumed and cancelled; dispatch sources are thread-safe.
    private let source: any DispatchSourceTimer

    init(_ source: any DispatchSourceTimer) {
        self.source = source
    }

    func cancel() {
        source.cancel()
    }

    deinit {
        source.cancel()
    }
}
