import Synchronization

/// One iterator of `Transaction.updates`.
typealias UpdatesListener = AsyncListener<VerificationResult<Transaction>>

/// One iterator of an endless StoreKit 2 sequence (`Transaction.updates`, `Storefront.updates`): the elements given to
/// it wait here until `next()` takes them; or, for a synchronous listener (feeds), go to its handler as they arrive.
final class AsyncListener<Element: Sendable>: Sendable {
    private struct State {
        var buffer: [Element] = []
        var head = 0
        var waiting: CheckedContinuation<Element?, Never>?
        var cancelled = false
    }

    private let state = Mutex(State())
    private let handler: (@Sendable (Element) -> Void)?

    /// Creates a listener whose updates wait for `next()`, or go to `handler` as they arrive.
    init(handler: (@Sendable (Element) -> Void)? = nil) {
        self.handler = handler
    }

    /// Takes updates, in order.
    func receive(_ results: [Element]) {
        guard !results.isEmpty else { return }
        if let handler {
            for result in results { handler(result) }
            return
        }
        let resumed = state.withLock {
            state -> (CheckedContinuation<Element?, Never>, Element)? in
            state.buffer.append(contentsOf: results)
            guard let waiting = state.waiting else { return nil }
            state.waiting = nil
            return (waiting, take(&state)!)
        }
        if let (continuation, result) = resumed { continuation.resume(returning: result) }
    }

    private func take(_ state: inout State) -> Element? {
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
    func next() async -> Element? {
        await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Element?, Never>) in
                let ready = state.withLock { state -> (Element?, Bool) in
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
