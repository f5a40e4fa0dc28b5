/// A benchmark whose workloads all run in the same rounds (as ``Runner`` runs a comparison), where further rows may
/// each have a baseline of their own: a receipt of another size beside a walk over that same receipt, say.
///
/// The headline is `figure` against `baseline`. Each further row is a variant (ratio to `baseline`), a further
/// baseline (ratio headline / it), or a pair: a figure reported with the ratio to its own baseline, which follows it
/// in the table without a ratio.
struct PairedComparison {
    /// A row after the headline.
    enum Row {
        /// A variant of the code under test; its ratio is to the headline's baseline.
        case variant(Workload)
        /// A further baseline; its ratio is headline / it.
        case baseline(Workload)
        /// A figure and its own baseline; the figure's ratio is figure / its baseline.
        case pair(Workload, against: Workload)
    }

    /// The benchmark's name.
    var name: String
    /// The unit of every rate.
    var unit: String
    /// What is measured.
    var about: String
    /// The ratio aimed for, if any.
    var target: Double?
    /// The code under test.
    var figure: Workload
    /// What it is compared with.
    var baseline: Workload
    /// Further rows.
    var rows: [Row] = []

    /// Measures every workload in rotating rounds and builds the report.
    func run(_ options: RunOptions) throws -> BenchmarkReport {
        var workloads = [figure, baseline]
        for row in rows {
            switch row {
            case .variant(let workload), .baseline(let workload): workloads.append(workload)
            case .pair(let workload, let reference): workloads += [workload, reference]
            }
        }
        let rates = try Runner(options: options).measure(workloads)
        var report = BenchmarkReport(
            name: name,
            unit: unit,
            about: about,
            figure: rates[0],
            baseline: baseline.label,
            baselineFigure: rates[1],
            target: target
        )
        report.notes.append("headline: \(figure.label); \(figure.items) items per sample")
        var index = 2
        for row in rows {
            switch row {
            case .variant(let workload):
                report.figures.append(
                    Self.figure(workload, unit, rates[index], ratio: rates[index].median / rates[1].median))
                index += 1
            case .baseline(let workload):
                report.figures.append(
                    Self.figure(workload, unit, rates[index], ratio: rates[0].median / rates[index].median))
                index += 1
            case .pair(let workload, let reference):
                let ratio = rates[index].median / rates[index + 1].median
                report.figures.append(Self.figure(workload, unit, rates[index], ratio: ratio))
                report.figures.append(Self.figure(reference, unit, rates[index + 1], ratio: nil))
                index += 2
            }
        }
        return report
    }

    /// A figure that is not a rate (a wall time, a size), for ``BenchmarkReport/figures``.
    static func extra(_ name: String, unit: String, _ summary: Summary) -> BenchmarkReport.Figure {
        BenchmarkReport.Figure(
            name: name, role: "extra", unit: unit, median: summary.median, min: summary.min, max: summary.max,
            ratio: nil)
    }

    private static func figure(
        _ workload: Workload, _ unit: String, _ rate: Summary, ratio: Double?
    ) -> BenchmarkReport.Figure {
        BenchmarkReport.Figure(
            name: workload.label, role: workload.role.rawValue, unit: unit, median: rate.median, min: rate.min,
            max: rate.max, ratio: ratio)
    }
}
