import Synchronization
public import Testing

/// How long a test waits for something that should happen promptly before it reports a failure.
public let defaultWaitLimit: Duration = .seconds(30)

/// Waits for `operation` for at most `limit`; past it, records an issue naming `what` and throws ``WaitTimedOut``.
///
/// The operation runs in a task of its own, so even an operation that ignores cancellation (a continuation nobody
/// resumes, a stream nobody finishes) cannot hang the test: the test gets its failure, and the abandoned task is
/// cancelled.
public func bounded<T: Sendable>(
    _ what: String,
    within limit: Duration = defaultWaitLimit,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let outcome = OnceOutcome<T>()
    do {
        return try await withCheckedThrowingContinuation { continuation in
            outcome.install(continuation)
            let worker = Task {
                do { outcome.finish(.success(try await operation())) } catch { outcome.finish(.failure(error)) }
            }
            let timer = Task {
                try? await Task.sleep(for: limit)
                if !Task.isCancelled, outcome.finish(.failure(WaitTimedOut(what: what, limit: limit))) {
                    worker.cancel()
                }
            }
            outcome.onFinish { timer.cancel() }
        }
    } catch let timeout as WaitTimedOut {
        Issue.record("\(timeout)", sourceLocation: sourceLocation)
        throw timeout
    }
}

/// The next element of `stream`, waited for at most `limit` (nil when the stream has finished).
///
/// Each call reads from the stream's one buffer, so consecutive calls see consecutive elements.
public func next<Element: Sendable>(
    _ stream: AsyncStream<Element>,
    _ what: String = "the next element of a stream",
    within limit: Duration = defaultWaitLimit,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws -> Element? {
    try await bounded(what, within: limit, sourceLocation: sourceLocation) {
        var iterator = stream.makeAsyncIterator()
        return await iterator.next()
    }
}

/// The first result delivered to a continuation; later ones are dropped.
private final class OnceOutcome<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var pending: Result<T, any Error>?
        var finished = false
        var onFinish: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    func install(_ continuation: CheckedContinuation<T, any Error>) {
        let pending = state.withLock { state -> Result<T, any Error>? in
            state.continuation = continuation
            return state.pending
        }
        if let pending { continuation.resume(with: pending) }
    }

    func onFinish(_ action: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.finished { return true }
            state.onFinish = action
            return false
        }
        if runNow { action() }
    }

    /// Delivers `result` if nothing was delivered yet; returns whether it was.
    @discardableResult
    func finish(_ result: Result<T, any Error>) -> Bool {
        let (delivered, continuation, action) = state.withLock {
            state -> (Bool, CheckedContinuation<T, any Error>?, (@Sendable () -> Void)?) in
            guard !state.finished else { return (false, nil, nil) }
            state.finished = true
            let continuation = state.continuation
            state.continuation = nil
            if continuation == nil { state.pending = result }
            let action = state.onFinish
            state.onFinish = nil
            return (true, continuation, action)
        }
        continuation?.resume(with: result)
        action?()
        return delivered
    }
}
