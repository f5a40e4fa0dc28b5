public import Dispatch
import Synchronization

/// The one serial lane through which every state change and every callback of a store passes, in order.
///
/// In ``Mode-swift.enum/manual`` mode work waits until ``runUntilIdle()`` runs it on the calling thread: tests and feeds
/// use this to advance the store exactly when they want, with no threads and no waiting. In
/// ``Mode-swift.enum/dispatch(_:)`` mode work runs on a serial dispatch queue (the main queue by default, as StoreKit
/// delivers observer callbacks on the main thread).
public final class StoreLane: Sendable {
    /// How work on the lane is run.
    public enum Mode: Sendable {
        /// Work runs only when ``StoreLane/runUntilIdle()`` is called.
        case manual
        /// Work runs on this serial queue as soon as it can.
        case dispatch(DispatchQueue)
    }

    /// How work is run.
    public let mode: Mode

    private struct Manual {
        var items: [@Sendable () -> Void] = []
        var head = 0
        var draining = false
    }

    private let manual = Mutex(Manual())
    private let outstanding = Atomic<Int>(0)

    /// Creates a lane.
    public init(mode: Mode) {
        self.mode = mode
    }

    /// Adds work at the end of the lane.
    public func enqueue(_ work: @escaping @Sendable () -> Void) {
        outstanding.add(1, ordering: .sequentiallyConsistent)
        switch mode {
        case .manual:
            manual.withLock { $0.items.append(work) }
        case .dispatch(let queue):
            queue.async {
                work()
                self.outstanding.subtract(1, ordering: .sequentiallyConsistent)
            }
        }
    }

    /// How many work items wait or run.
    public var pendingCount: Int { outstanding.load(ordering: .sequentiallyConsistent) }

    /// Runs work until none is left, including work that the work adds, and returns how many items ran.
    ///
    /// In manual mode the work runs on the calling thread; a call made from inside lane work returns at once (the outer
    /// call goes on with the rest). In dispatch mode it blocks until the queue has run everything; never call it from
    /// that queue.
    @discardableResult
    public func runUntilIdle() -> Int {
        switch mode {
        case .manual:
            let mayDrain = manual.withLock { state -> Bool in
                guard !state.draining else { return false }
                state.draining = true
                return true
            }
            guard mayDrain else { return 0 }
            var ran = 0
            while let next = nextManualItem() {
                next()
                outstanding.subtract(1, ordering: .sequentiallyConsistent)
                ran += 1
            }
            return ran
        case .dispatch(let queue):
            var ran = 0
            while pendingCount > 0 {
                queue.sync {}
                ran += 1
            }
            return ran
        }
    }

    /// Waits until the lane has no work left, without blocking a thread.
    ///
    /// In manual mode this runs the work, as ``runUntilIdle()`` does.
    public func idle() async {
        switch mode {
        case .manual:
            runUntilIdle()
        case .dispatch(let queue):
            while pendingCount > 0 {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    queue.async { continuation.resume() }
                }
            }
        }
    }

    private func nextManualItem() -> (@Sendable () -> Void)? {
        manual.withLock { state in
            guard state.head < state.items.count else {
                state.items.removeAll(keepingCapacity: true)
                state.head = 0
                state.draining = false
                return nil
            }
            let item = state.items[state.head]
            state.head += 1
            if state.head >= 1024, state.head * 2 >= state.items.count {
                state.items.removeFirst(state.head)
                state.head = 0
            }
            return item
        }
    }
}
