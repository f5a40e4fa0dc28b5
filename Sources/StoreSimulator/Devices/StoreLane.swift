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

    /// One item of work.
    private enum Item: Sendable {
        case closure(@Sendable () -> Void)
        case step(DeviceConnection, DeviceConnection.Step, UInt64)

        func run() {
            switch self {
            case .closure(let work): work()
            case .step(let connection, let step, let id): connection.run(step, id)
            }
        }
    }

    /// The work of a manual lane: `items[head..<tail]` waits, in order. Slots are reused in place rather than removed,
    /// which keeps enqueuing and running on `Array`'s specialized paths.
    private struct Manual {
        var items: [Item?] = []
        var head = 0
        var tail = 0
        var draining = false

        mutating func append(_ item: consuming Item) {
            if tail == items.count, head > 0, head >= tail - head {
                // Move the waiting items to the front rather than grow.
                for index in head..<tail {
                    items[index - head] = items[index].take()
                }
                tail -= head
                head = 0
            }
            if tail == items.count {
                items.append(item)
            } else {
                items[tail] = item
            }
            tail += 1
        }

        /// Takes the first waiting item; there must be one.
        mutating func takeFirst() -> Item? {
            let item = items[head].take()
            head += 1
            return item
        }
    }

    private let manual = Mutex(Manual())
    private let outstanding = Atomic<Int>(0)
    /// What a durable store in group-commit mode holds for its devices until the end of a run; `nil` for any other
    /// store, whose events are delivered where they are produced.
    let outbox: DeviceOutbox?

    /// Creates a lane.
    public convenience init(mode: Mode) {
        self.init(mode: mode, outbox: nil)
    }

    /// Creates a lane that delivers what `outbox` holds at the end of each run and before closures.
    init(mode: Mode, outbox: DeviceOutbox?) {
        self.mode = mode
        self.outbox = outbox
    }

    /// Runs one item: the events held for devices are delivered first if it is a closure, which may call a front end
    /// directly and must come after what the front end was to hear before it.
    private func run(_ item: Item) {
        if let outbox, case .closure = item { outbox.deliver() }
        item.run()
    }

    /// Adds work at the end of the lane.
    public func enqueue(_ work: @escaping @Sendable () -> Void) {
        enqueue(.closure(work))
    }

    /// Adds a store step for a connection's transaction at the end of the lane, with no closure to allocate.
    func enqueue(_ connection: DeviceConnection, _ step: DeviceConnection.Step, _ id: UInt64) {
        enqueue(.step(connection, step, id))
    }

    private func enqueue(_ item: consuming Item) {
        outstanding.add(1, ordering: .sequentiallyConsistent)
        switch mode {
        case .manual:
            // Moved, not copied, into the lane: copying would retain the item's object once more.
            var moving: Item? = consume item
            manual.withLock { $0.append(moving.take()!) }
        case .dispatch(let queue):
            let item = copy item
            queue.async {
                self.run(item)
                // The last item of a run delivers what the run held, before the lane counts as idle.
                if let outbox = self.outbox, self.outstanding.load(ordering: .sequentiallyConsistent) == 1 {
                    outbox.deliver()
                }
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
            // Claiming the lane and taking its first item share one lock round trip.
            var next = manual.withLock { state -> Item? in
                guard !state.draining, state.head < state.tail else { return nil }
                state.draining = true
                return state.takeFirst()
            }
            var ran = 0
            let holds = outbox != nil
            while let item = next.take() {
                run(item)
                ran += 1
                // A lane whose store holds events keeps its claim until it has delivered them, which may add work.
                next = nextManualItem(releasing: !holds)
                if next == nil, let outbox {
                    outbox.deliver()
                    next = nextManualItem(releasing: true)
                }
                outstanding.subtract(1, ordering: .sequentiallyConsistent)
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

    /// Takes the next waiting item; with none, gives up the claim on the lane if `releasing`.
    private func nextManualItem(releasing: Bool) -> Item? {
        manual.withLock { state in
            guard state.head < state.tail else {
                state.head = 0
                state.tail = 0
                if releasing { state.draining = false }
                return nil
            }
            return state.takeFirst()
        }
    }
}
