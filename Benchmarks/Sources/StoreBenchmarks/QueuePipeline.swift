import Foundation
import OpenStoreKit
import StoreSimulator

#if canImport(Glibc)
    import Glibc
#endif

/// A fresh in-memory store on a manual lane, a queue on it and a finishing observer: purchases of a consumable go
/// add → purchasing → purchased → observer → finish → removed.
///
/// The store keeps only what a receipt lists (`retention: .receiptOnly`), so finished consumables leave its history
/// and memory stays flat however many are bought.
final class QueuePipeline {
    /// The product bought: the demo catalog's consumable.
    static let productID = "com.example.coins100"

    let store: SimulatedStore
    let queue: SKPaymentQueue
    let observer: FinishingObserver
    let product: SKProduct

    /// Sets the pipeline up (not timed).
    init(finishes: Bool = true) {
        store = SimulatedStore(lane: .manual, retention: .receiptOnly)
        queue = SKPaymentQueue(store: store)
        observer = FinishingObserver(finishes: finishes)
        queue.add(observer)
        do {
            product = try ProductLoader.product(Self.productID, from: store)
        } catch {
            fatalError("\(error)")
        }
    }

    /// One purchase at a time, as an app makes them: add a payment, let the store run until the purchase is finished
    /// and removed. Returns how many purchases completed the whole path.
    func runOneAtATime(_ count: Int) -> Int {
        for _ in 0..<count {
            queue.add(SKPayment(product: product))
            store.runUntilIdle()
        }
        return completed
    }

    /// `batch` payments added at once, then the store runs until all are finished and removed.
    func runBatched(_ count: Int, batch: Int) -> Int {
        var left = count
        while left > 0 {
            let now = min(batch, left)
            for _ in 0..<now { queue.add(SKPayment(product: product)) }
            store.runUntilIdle()
            left -= now
        }
        return completed
    }

    /// Purchases that were delivered, finished and removed, or -1 if anything failed or is left in the queue.
    var completed: Int {
        observer.failed == 0 && observer.purchased == observer.removed && queue.transactions.isEmpty
            ? observer.removed : -1
    }

    /// The heap allocation size of one `SKPaymentTransaction` (what `malloc_usable_size` reports for it).
    static let transactionAllocationSize = measureTransactionAllocationSize()

    private static func measureTransactionAllocationSize() -> Int {
        let pipeline = QueuePipeline(finishes: false)
        pipeline.queue.add(SKPayment(product: pipeline.product))
        pipeline.store.runUntilIdle()
        guard let transaction = pipeline.queue.transactions.first else { return 0 }
        return allocationSize(of: transaction)
    }
}

/// What `malloc_usable_size` reports for an object's allocation (0 where it is unavailable).
func allocationSize(of object: AnyObject) -> Int {
    #if canImport(Glibc)
        // malloc_usable_size is declared in <malloc.h>, which the Glibc module does not export; look it up instead.
        typealias UsableSize = @convention(c) (UnsafeMutableRawPointer?) -> Int
        guard let symbol = dlsym(nil, "malloc_usable_size") else { return 0 }
        let usableSize = unsafeBitCast(symbol, to: UsableSize.self)
        return withExtendedLifetime(object) { usableSize(Unmanaged.passUnretained(object).toOpaque()) }
    #else
        return 0
    #endif
}
