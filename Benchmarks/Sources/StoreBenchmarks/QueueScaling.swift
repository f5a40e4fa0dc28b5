import Foundation

/// `queue.scaling`: the parent runs one child process per size; each child measures the queue and the baseline at
/// that size and reports its own peak resident memory.
enum QueueScaling {
    /// The sizes to run.
    static func sizes(_ options: RunOptions) -> [Int] {
        if options.quick { return [1_000, 10_000] }
        let all = [1_000, 10_000, 100_000, 1_000_000, 10_000_000]
        return options.skipLargest ? all.dropLast() : all
    }

    /// Samples at a size: as many as asked for small sizes, fewer for large ones (one at 10^7).
    static func samples(at size: Int, _ options: RunOptions) -> Int {
        options.quick ? 1 : max(1, min(options.samples, 3_000_000 / size))
    }

    /// The parent: one child per size, then the report.
    static func run(_ context: BenchmarkContext, options: RunOptions) throws -> BenchmarkReport {
        var points: [BenchmarkReport.Point] = []
        for size in sizes(options) {
            let samples = samples(at: size, options)
            log("  queue.scaling: \(size) transactions, \(samples) sample(s), fresh process")
            let figures = try context.child("queue.scaling", [String(size), String(samples)])
            points.append(BenchmarkReport.Point(size: size, values: figures))
            if let nanoseconds = figures["nsPerTransaction"], let peak = figures["peakRSSMiB"] {
                log("    \(Format.significant(nanoseconds)) ns/transaction, peak RSS \(Format.significant(peak)) MiB")
            }
        }
        let rates = points.map { 1e9 / ($0.values["nsPerTransaction"] ?? .infinity) }
        let baselineRates = points.map { 1e9 / ($0.values["baselineNsPerItem"] ?? .infinity) }
        var report = BenchmarkReport(
            name: "queue.scaling",
            unit: "transactions/s",
            about: "queue.pipeline at sizes 10^3 ... 10^7, each in a fresh process",
            figure: Summary(rates),
            baseline: "Mutex + String-keyed dictionary, at the same sizes",
            baselineFigure: Summary(baselineRates),
            target: nil
        )
        let costs = points.compactMap { $0.values["nsPerTransaction"] }
        if let cheapest = costs.min(), let dearest = costs.max(), cheapest > 0 {
            report.figures.append(
                extra("cost spread over sizes (max / min ns per transaction)", "×", dearest / cheapest))
        }
        if let first = points.first, let last = points.last, let low = first.values["peakRSSMiB"],
            let high = last.values["peakRSSMiB"]
        {
            report.figures.append(extra("peak RSS at \(first.size) transactions", "MiB", low))
            report.figures.append(extra("peak RSS at \(last.size) transactions", "MiB", high))
            report.figures.append(extra("peak RSS growth, \(first.size) to \(last.size)", "MiB", high - low))
        }
        report.points = points
        report.notes.append("sizes: " + points.map { String($0.size) }.joined(separator: ", "))
        if options.skipLargest { report.notes.append("10^7 skipped (--skip-1e7)") }
        return report
    }

    /// The child: warm up, then time the queue and the baseline in turns at one size, and read the peak RSS.
    ///
    /// Arguments: the size and the number of samples.
    static func child(_ arguments: [String]) throws -> [String: Double] {
        guard arguments.count == 2, let size = Int(arguments[0]), size > 0, let samples = Int(arguments[1]),
            samples > 0
        else {
            throw BenchmarkError("queue.scaling child needs SIZE SAMPLES, got \(arguments)")
        }
        let objectSize = QueuePipeline.transactionAllocationSize
        func queue(_ count: Int) -> Workload {
            Workload("queue", items: count) {
                let pipeline = QueuePipeline()
                return { pipeline.runOneAtATime(count) }
            }
        }
        func baseline(_ count: Int) -> Workload {
            Workload("baseline", role: .baseline, items: count) {
                let baseline = MutexDictionaryBaseline(objectSize: objectSize)
                return { baseline.run(count) }
            }
        }
        _ = try Runner.time(queue(1_000))
        _ = try Runner.time(baseline(1_000))
        let startKiB = ProcessMemory.residentKiB ?? 0
        var queueNanoseconds: [Double] = []
        var baselineNanoseconds: [Double] = []
        for round in 0..<samples {
            // Alternate which goes first, as the runner does.
            if round % 2 == 0 {
                queueNanoseconds.append(1e9 / (try Runner.time(queue(size))))
                baselineNanoseconds.append(1e9 / (try Runner.time(baseline(size))))
            } else {
                baselineNanoseconds.append(1e9 / (try Runner.time(baseline(size))))
                queueNanoseconds.append(1e9 / (try Runner.time(queue(size))))
            }
        }
        let peakKiB = ProcessMemory.peakResidentKiB ?? 0
        let queue = Summary(queueNanoseconds)
        let reference = Summary(baselineNanoseconds)
        return [
            "size": Double(size),
            "samples": Double(samples),
            "nsPerTransaction": queue.median,
            "nsPerTransactionMin": queue.min,
            "nsPerTransactionMax": queue.max,
            "transactionsPerSecond": 1e9 / queue.median,
            "baselineNsPerItem": reference.median,
            "ratio": reference.median / queue.median,
            "startRSSMiB": Double(startKiB) / 1024,
            "peakRSSMiB": Double(peakKiB) / 1024,
        ]
    }

    private static func extra(_ name: String, _ unit: String, _ value: Double) -> BenchmarkReport.Figure {
        BenchmarkReport.Figure(name: name, role: "extra", unit: unit, median: value, min: value, max: value, ratio: nil)
    }
}
