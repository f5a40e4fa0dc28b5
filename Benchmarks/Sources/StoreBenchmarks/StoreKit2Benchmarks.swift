import Dispatch
import Foundation
import OpenStoreKit2
import ReceiptKit
import StoreSimulator
import Synchronization

extension BenchmarkSuite {
    /// `sk2.purchase`: StoreKit 2's purchase path end to end, beside `queue.pipeline` and `jws.sign` in the same run.
    mutating func addStoreKit2Benchmarks() {
        let count = options.quick ? 100 : 2_000
        let pipelineCount = options.quick ? 1_000 : 20_000
        let signCount = options.quick ? 5 : 2_000
        add(
            Benchmark(
                name: "sk2.purchase",
                unit: "purchases/s",
                about: """
                    Consumable purchases through StoreKit 2 on one in-memory store on a manual lane, one at a time: \
                    Product.purchase() -> the store signs the transaction (JWS, ES256) -> VerificationResult \
                    .payloadValue (ReceiptKit verifies it) -> Transaction.finish(). Baseline: queue.pipeline's \
                    figure (StoreKit 1, no signing) in the same run; jws.sign's figure (JWSSigner alone) beside it.
                    """,
                target: nil,
                body: .comparison(
                    figure: Workload("StoreKit 2 purchase, verified, finished", items: count) {
                        let run = StoreKit2PurchaseRun()
                        return { run.run(count) }
                    },
                    baseline: Workload(
                        "queue.pipeline: StoreKit 1, one purchase at a time", role: .baseline,
                        items: pipelineCount
                    ) {
                        let pipeline = QueuePipeline()
                        return { pipeline.runOneAtATime(pipelineCount) }
                    },
                    others: [
                        Workload("jws.sign: JWSSigner.sign(payloadJSON:)", role: .baseline, items: signCount) {
                            let signer = JWSSigner()
                            let payload = (try? JWSBenchmarks.Fixture().payloadJSON) ?? []
                            return {
                                successes(signCount) {
                                    guard let jws = try? signer.sign(payloadJSON: payload) else { return false }
                                    blackHole(jws)
                                    return true
                                }
                            }
                        }
                    ]
                )
            )
        )
    }
}

/// One store and one StoreKit 2 client, reused across samples; each run buys `count` consumables one at a time.
final class StoreKit2PurchaseRun: @unchecked Sendable {
    // @unchecked: `product` is set once in init and only read after; runs do not overlap.
    let store = SimulatedStore(lane: .manual, retention: .receiptOnly)
    private var product: Product?

    init() {
        product = wait { [store] in
            await StoreKitEnvironment.withStore(store) {
                try? await Product.products(for: ["com.example.coins100"]).first
            }
        }
    }

    /// Buys, verifies and finishes `count` consumables; returns how many were verified purchases.
    func run(_ count: Int) -> Int {
        guard let product else { return 0 }
        return wait { [store] in
            await StoreKitEnvironment.withStore(store) {
                var done = 0
                for _ in 0..<count {
                    guard case .success(let result)? = try? await product.purchase(),
                        let transaction = try? result.payloadValue
                    else { continue }
                    await transaction.finish()
                    done += 1
                }
                return done
            }
        }
    }

    /// Runs async work to its end from synchronous code (the runner's timed bodies are synchronous).
    private func wait<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
        // `Product.purchase` is @MainActor, as Apple's: the main thread (the runner's) keeps its run loop turning
        // until the work is done, instead of blocking.
        let box = ResultBox<T>()
        let done = Atomic<Bool>(false)
        Task {
            box.value = await work()
            done.store(true, ordering: .releasing)
        }
        while !done.load(ordering: .acquiring) {
            _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.001))
        }
        return box.value!
    }
}

/// Carries a value out of a task (written once, before the semaphore is signalled, and read after).
private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}
