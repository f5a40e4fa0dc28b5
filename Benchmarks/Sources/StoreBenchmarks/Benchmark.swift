/// A named benchmark: a figure measured next to a baseline in the same process and run.
struct Benchmark {
    /// How a benchmark is measured.
    enum Body {
        /// The runner times `figure`, `baseline` and `others` in turns, round after round, and reports rates
        /// (`items` per second). `others` are extra variants (compared with `baseline`) and extra baselines (which the
        /// headline figure is compared with).
        case comparison(figure: Workload, baseline: Workload, others: [Workload])
        /// The benchmark measures itself (for instance in child processes) and returns its report.
        case custom((BenchmarkContext) throws -> BenchmarkReport)
    }

    /// A dotted name, such as `queue.pipeline`; filters match against it.
    var name: String
    /// The unit of the headline figure, such as `transactions/s`.
    var unit: String
    /// One or two sentences: what is measured and what the baseline is.
    var about: String
    /// The ratio (figure / baseline) the project aims for, if there is one.
    var target: Double?
    /// How it is measured.
    var body: Body
    /// Remarks worked out when the benchmark runs (object sizes, say), copied into its report.
    var notes: () -> [String] = { [] }
}
