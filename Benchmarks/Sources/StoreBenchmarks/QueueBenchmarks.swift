import Foundation

extension BenchmarkSuite {
    /// `queue.pipeline` and `queue.scaling`.
    mutating func addQueueBenchmarks() {
        addQueuePipeline()
        addQueueScaling()
    }

    private mutating func addQueuePipeline() {
        let count = options.quick ? 1_000 : 100_000
        let baseline = Workload(
            "Mutex + String-keyed dictionary, object of a transaction's size", role: .baseline, items: count
        ) {
            let baseline = MutexDictionaryBaseline(objectSize: QueuePipeline.transactionAllocationSize)
            return { baseline.run(count) }
        }
        // Batches cost more per transaction as they grow (see the README), so they run fewer items per sample; the
        // rate per transaction depends on the batch size, not on the total.
        let batchedCount = options.quick ? 1_000 : 20_000
        var others: [Workload] = [10, 100, 1_000].map { batch in
            Workload("queue, batches of \(batch) payments", items: batchedCount) {
                let pipeline = QueuePipeline()
                return { pipeline.runBatched(batchedCount, batch: batch) }
            }
        }
        others.append(
            Workload("plain locked array + closure (16-byte items)", role: .baseline, items: count) {
                let baseline = LockedArrayBaseline()
                return { baseline.run(count) }
            }
        )
        add(
            Benchmark(
                name: "queue.pipeline",
                unit: "transactions/s",
                about: """
                    Consumable purchases through one in-memory queue on a manual lane: add -> purchasing -> purchased \
                    -> observer -> finish -> removed, one at a time as an app makes them. Baseline: per item, allocate \
                    an object of a transaction's size, insert it in a String-keyed dictionary, call a closure, remove \
                    it, under a Mutex.
                    """,
                target: 0.25,
                body: .comparison(
                    figure: Workload("queue, one purchase at a time", items: count) {
                        let pipeline = QueuePipeline()
                        return { pipeline.runOneAtATime(count) }
                    },
                    baseline: baseline,
                    others: others
                ),
                notes: { () -> [String] in
                    let size = QueuePipeline.transactionAllocationSize
                    let item = MutexDictionaryBaseline(objectSize: size).itemAllocationSize()
                    return [
                        "SKPaymentTransaction allocation: \(size) bytes; baseline object allocation: \(item) bytes"
                    ]
                }
            )
        )
    }

    private mutating func addQueueScaling() {
        let options = self.options
        addChild("queue.scaling", QueueScaling.child)
        add(
            Benchmark(
                name: "queue.scaling",
                unit: "transactions/s",
                about: """
                    queue.pipeline (one purchase at a time) at 10^3 ... 10^7 transactions, each size in a fresh \
                    process: cost per transaction must stay flat and peak resident memory (VmHWM) must not grow \
                    with finished transactions. Headline: median over sizes of each size's median rate; min and \
                    max over sizes. Baseline: the queue.pipeline baseline at the same sizes, in the same processes.
                    """,
                target: nil,
                body: .custom { context in try QueueScaling.run(context, options: options) }
            )
        )
    }
}
