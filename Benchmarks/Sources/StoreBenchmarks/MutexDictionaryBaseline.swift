import Synchronization

/// The `queue.pipeline` baseline: what tracking a transaction costs at the least. Per item: allocate an object the
/// size of an `SKPaymentTransaction`, insert it in a dictionary keyed by its identifier as a `String` (19 digits, so
/// a heap string like `transactionIdentifier`), call an observer closure with it, remove it; the dictionary sits
/// behind a `Mutex`, locked once to insert and once to remove, as a thread-safe queue would.
final class MutexDictionaryBaseline {
    /// A heap object whose allocation is as large as a transaction's: a header (the identifier) and raw bytes.
    struct Item: @unchecked Sendable {
        // @unchecked: the buffer is never changed after creation (transactions are Sendable too).
        let buffer: ManagedBuffer<UInt64, UInt8>

        /// An item with `payloadBytes` bytes after its header.
        init(id: UInt64, payloadBytes: Int) {
            buffer = ManagedBuffer.create(minimumCapacity: payloadBytes) { _ in id }
        }

        var id: UInt64 { buffer.header }
    }

    private let table = Mutex<[String: Item]>([:])
    private let observer: (Item) -> Void
    private let counter: Counter
    private let payloadBytes: Int

    /// Prepares the baseline for objects of `objectSize` bytes (a transaction's allocation size).
    init(objectSize: Int) {
        // A ManagedBuffer carries the object header (16 bytes) and its 8-byte header before the elements.
        payloadBytes = max(0, objectSize - 24)
        let counter = Counter()
        self.counter = counter
        observer = { item in counter.value &+= Int(truncatingIfNeeded: item.id & 1) | 1 }
    }

    /// Runs `count` items through and returns how many went the whole way.
    func run(_ count: Int) -> Int {
        var id: UInt64 = 1_000_000_000_000_001
        var done = 0
        for _ in 0..<count {
            let key = String(id)
            let item = Item(id: id, payloadBytes: payloadBytes)
            id += 1
            table.withLock { $0[key] = item }
            observer(item)
            if table.withLock({ $0.removeValue(forKey: key) }) != nil { done += 1 }
        }
        return counter.value == count ? done : -1
    }

    /// The allocation size of one item, to check it matches a transaction's.
    func itemAllocationSize() -> Int {
        allocationSize(of: Item(id: 0, payloadBytes: payloadBytes).buffer)
    }
}

/// A count an observer closure bumps.
final class Counter {
    var value = 0
}
