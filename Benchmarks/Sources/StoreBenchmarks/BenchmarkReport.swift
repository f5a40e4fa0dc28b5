/// The outcome of one benchmark, as written to the JSON file and the summary table.
struct BenchmarkReport: Codable {
    /// Another figure measured in the same run: a variant of the code under test, another baseline, or a derived
    /// figure such as peak memory.
    struct Figure: Codable {
        /// What it is.
        var name: String
        /// `variant`, `baseline`, or `extra` for a figure that is not a rate (memory, spread).
        var role: String
        /// Its unit.
        var unit: String
        /// The median sample.
        var median: Double
        /// The smallest sample.
        var min: Double
        /// The largest sample.
        var max: Double
        /// For a variant: its median / the benchmark's baseline median. For a baseline: the headline median / its
        /// median. Absent for extras.
        var ratio: Double?
    }

    /// One size of a scaling benchmark, with the figures measured at it.
    struct Point: Codable {
        /// The number of items.
        var size: Int
        /// The figures, by name (see the benchmark's README entry).
        var values: [String: Double]

        /// The figure `key` as a summary: its median, with the range kept beside it as `keyMin` and `keyMax` (a
        /// child process measured the samples and reported these three).
        func summary(_ key: String) -> Summary {
            let median = values[key] ?? 0
            var summary = Summary([median])
            summary.min = values[key + "Min"] ?? median
            summary.max = values[key + "Max"] ?? median
            return summary
        }
    }

    /// The benchmark's name.
    var name: String
    /// The unit of `median`, `min` and `max`.
    var unit: String
    /// What is measured.
    var about: String
    /// The headline figure's median sample.
    var median: Double
    /// The headline figure's smallest sample.
    var min: Double
    /// The headline figure's largest sample.
    var max: Double
    /// How many samples the headline figure has.
    var samples: Int
    /// What the baseline is.
    var baseline: String
    /// The baseline's median sample (same unit).
    var baselineMedian: Double
    /// The baseline's smallest sample.
    var baselineMin: Double
    /// The baseline's largest sample.
    var baselineMax: Double
    /// median / baselineMedian.
    var ratio: Double
    /// The ratio aimed for, if any.
    var target: Double?
    /// Whether `ratio` reaches `target` (absent without a target).
    var meetsTarget: Bool?
    /// Further figures from the same run.
    var figures: [Figure] = []
    /// Per-size figures, for scaling benchmarks.
    var points: [Point]?
    /// Remarks worth keeping with the numbers (sizes, skipped parts, object sizes).
    var notes: [String] = []

    /// Creates a report; the ratio and whether it meets the target are worked out here.
    init(
        name: String,
        unit: String,
        about: String,
        figure: Summary,
        baseline: String,
        baselineFigure: Summary,
        target: Double?
    ) {
        self.name = name
        self.unit = unit
        self.about = about
        self.median = figure.median
        self.min = figure.min
        self.max = figure.max
        self.samples = figure.samples
        self.baseline = baseline
        self.baselineMedian = baselineFigure.median
        self.baselineMin = baselineFigure.min
        self.baselineMax = baselineFigure.max
        self.ratio = baselineFigure.median > 0 ? figure.median / baselineFigure.median : 0
        self.target = target
        self.meetsTarget = target.map { ratio >= $0 }
    }
}
