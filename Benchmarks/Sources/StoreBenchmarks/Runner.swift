/// Runs benchmarks: warm-up rounds, then measured rounds in which every workload of a benchmark runs once, in an
/// order that rotates each round, so that noise from a shared machine falls on all of them alike.
struct Runner {
    /// The command-line options.
    var options: RunOptions

    /// Runs one benchmark and returns its report.
    func run(_ benchmark: Benchmark) throws -> BenchmarkReport {
        switch benchmark.body {
        case .custom(let body):
            var report = try body(BenchmarkContext(options: options))
            report.notes += benchmark.notes()
            return report
        case .comparison(let figure, let baseline, let others):
            let workloads = [figure, baseline] + others
            let rates = try measure(workloads)
            var report = BenchmarkReport(
                name: benchmark.name,
                unit: benchmark.unit,
                about: benchmark.about,
                figure: rates[0],
                baseline: baseline.label,
                baselineFigure: rates[1],
                target: benchmark.target
            )
            report.notes.append("headline: \(figure.label); \(figure.items) items per sample")
            report.notes += benchmark.notes()
            for (workload, rate) in zip(others, rates.dropFirst(2)) {
                let ratio =
                    workload.role == .baseline
                    ? rates[0].median / rate.median : rate.median / rates[1].median
                report.figures.append(
                    BenchmarkReport.Figure(
                        name: workload.label,
                        role: workload.role.rawValue,
                        unit: benchmark.unit,
                        median: rate.median,
                        min: rate.min,
                        max: rate.max,
                        ratio: ratio
                    )
                )
            }
            return report
        }
    }

    /// Times every workload once per round and returns each one's rates (items per second).
    func measure(_ workloads: [Workload]) throws -> [Summary] {
        var rates = Array(repeating: [Double](), count: workloads.count)
        for round in 0..<(options.warmups + options.samples) {
            for step in workloads.indices {
                let index = (round + step) % workloads.count
                let workload = workloads[index]
                let rate = try Self.time(workload)
                if round >= options.warmups { rates[index].append(rate) }
            }
        }
        return rates.map(Summary.init)
    }

    /// Sets a workload up, times its body once and returns items per second.
    static func time(_ workload: Workload) throws -> Double {
        let body = workload.make()
        let (done, nanoseconds) = Stopwatch.time(body)
        guard done == workload.items else {
            throw BenchmarkError(
                "\(workload.label): completed \(done) of \(workload.items) items; the workload is broken"
            )
        }
        return Double(workload.items) * 1e9 / Double(Swift.max(nanoseconds, 1))
    }
}
