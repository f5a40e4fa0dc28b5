import Synchronization

/// The first benchmark's baseline: the same number of items through a plain locked array and a closure. Per item:
/// lock and append a 16-byte value, lock and take it, call an observer closure with it. No allocation per item, no
/// dictionary: the floor of "hand an item from a producer to an observer under a lock".
final class LockedArrayBaseline {
    /// A transaction reduced to its identifier and state.
    struct Item {
        var id: UInt64
        var state: Int
    }

    private let items = Mutex<[Item]>([])
    private let observer: (Item) -> Void
    private let counter: Counter

    /// Prepares the baseline.
    init() {
        let counter = Counter()
        self.counter = counter
        observer = { item in counter.value &+= item.state }
    }

    /// Runs `count` items through and returns how many the observer saw.
    func run(_ count: Int) -> Int {
        var id: UInt64 = 1_000_000_000_000_001
        for _ in 0..<count {
            let item = Item(id: id, state: 1)
            id += 1
            items.withLock { $0.append(item) }
            if let taken = items.withLock({ $0.popLast() }) { observer(taken) }
        }
        return counter.value
    }
}
