import Synchronization

/// One iterator of `Transaction.updates`: the updates given to it wait here until `next()` takes them; or, for a
/// synchronous listener (feeds), go to its handler as they arrive.
final class UpdatesListener: Sendable {
    private struct State {
        var buffer: [VerificationResult<Transaction>] = []
        var head = 0
        var waiting: CheckedContinuation<VerificationResult<Transaction>?, Never>?
        var cancelled = false
    }

    private let state = Mutex(State())
    private let handler: (@Sendable (VerificationResult<Transaction>) -> Void)?

    /// Creates a listener whose updates wait for `next()`, or go to `handler` as they arrive.
    init(handler: (@Sendable (VerificationResult<Transaction>) -> Void)? = nil) {
        self.handler = handler
    }

    /// Takes updates, in order.
    func receive(_ results: [VerificationResult<Transaction>]) {
        guard !results.isEmpty else { return }
        if let handler {
            for result in results { handler(result) }
            return
        }
        let resumed = state.withLock {
            state -> (CheckedContinuation<VerificationResult<Transaction>?, Never>, VerificationResult<Transaction>)? in
            state.buffer.append(contentsOf: results)
            guard let waiting = state.waiting else { return nil }
            state.waiting = nil
            return (waiting, take(&state)!)
        }
        if let (continuation, result) = resumed { continuation.resume(returning: result) }
    }

    private func take(_ state: inout State) -> VerificationResult<Transaction>? {
        guard state.head < state.buffer.count else { return nil }
        let result = state.buffer[state.head]
        state.head += 1
        if state.head == state.buffer.count {
            state.buffer.removeAll(keepingCapacity: true)
            state.head = 0
        }
        return result
    }

    /// The next update; `nil` once the waiting task is cancelled.
    func next() async -> VerificationResult<Transaction>? {
        await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<VerificationResult<Transaction>?, Never>) in
                let ready = state.withLock { state -> (VerificationResult<Transaction>?, Bool) in
                    if state.cancelled { return (nil, true) }
                    if let result = take(&state) { return (result, true) }
                    state.waiting = continuation
                    return (nil, false)
                }
                if ready.1 { continuation.resume(returning: ready.0) }
            }
        } onCancel: {
            let waiting = state.withLock { state in
                state.cancelled = true
                defer { state.waiting = nil }
                return state.waiting
            }
            waiting?.resume(returning: nil)
        }
    }
}
