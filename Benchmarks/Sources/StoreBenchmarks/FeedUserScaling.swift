import FeedRunner
import Foundation

/// `feed.scaling`: feeds of 20 steps per user at 1,000, 10,000 and 50,000 users, each run in a fresh child process
/// (the `feed.run` child), to show that a step costs the same and memory follows the users, whatever the size; then
/// the same feed with its store in a state file (`openstorekit run --state`), in a fresh child process too.
enum FeedUserScaling {
    /// The numbers of users: 1,000, 10,000 and 50,000, or tiny ones under `--quick`.
    static func sizes(_ options: RunOptions) -> [Int] {
        options.quick ? [50, 500] : [1_000, 10_000, 50_000]
    }

    /// Steps of a feed of `users` users: 20 per user, as `openstorekit generate` has it by default.
    static func steps(_ users: Int) -> Int { 20 * users }

    /// The most timed rounds at a size, after the first run that sets the peak memory: about 10^6 steps in all.
    static func samples(at users: Int, _ options: RunOptions) -> Int {
        options.quick ? 1 : max(1, min(options.samples, 1_000_000 / steps(users)))
    }

    /// The most timed rounds at a size with a state file, after the first run: about 3 × 10^5 steps in all, a run on a
    /// state file costing a few times one in memory (which is also why its time budget is three times as long).
    static func stateSamples(at users: Int, _ options: RunOptions) -> Int {
        options.quick ? 1 : max(1, min(options.samples, 300_000 / steps(users)))
    }

    /// The parent: generate, run two children per size (in memory, then on a state file), and report.
    static func run(_ context: BenchmarkContext, options: RunOptions) throws -> BenchmarkReport {
        let folder = try FeedScaling.makeFolder("users")
        defer { try? FileManager.default.removeItem(at: folder) }

        var points: [BenchmarkReport.Point] = []
        var statePoints: [BenchmarkReport.Point] = []
        var notes: [String] = []
        for users in sizes(options) {
            let file = folder.appendingPathComponent("users-\(users).feed")
            try FeedScaling.write(FeedGenerator(users: users, steps: steps(users), seed: FeedScaling.seed), to: file)
            let samples = samples(at: users, options)
            let budget = FeedScaling.budget(options)
            log(
                "  feed.scaling: \(users) users, \(steps(users)) steps, up to \(samples) timed run(s) within "
                    + "\(Int(budget)) s, fresh process")
            let figures = try context.child("feed.run", [file.path, String(samples), String(budget)])
            guard figures["stopped"] == nil else {
                throw BenchmarkError(
                    "the \(users)-user feed was stopped at the \(Int(budget)) s budget after "
                        + "\(Int(figures["stepsCompleted"] ?? 0)) steps")
            }
            points.append(BenchmarkReport.Point(size: users, values: figures))
            FeedScaling.logRun(figures, subject: "the \(users)-user feed", budget: budget, notes: &notes)
            let stateSamples = stateSamples(at: users, options)
            let stateBudget = 3 * budget
            log(
                "  feed.scaling: the same feed on a state file, up to \(stateSamples) timed run(s) within "
                    + "\(Int(stateBudget)) s, fresh process")
            let state = try context.child(
                "feed.run", [file.path, String(stateSamples), String(stateBudget), "state"])
            statePoints.append(BenchmarkReport.Point(size: users, values: state))
            FeedScaling.logRun(
                state, prefix: "with --state: ", subject: "with --state, the \(users)-user feed", budget: stateBudget,
                notes: &notes)
        }
        guard let largest = points.last, let smallest = points.first else {
            throw BenchmarkError("feed.scaling measured no size")
        }
        var report = BenchmarkReport(
            name: "feed.scaling",
            unit: "steps/s",
            about: "a generated feed of \(largest.size) users, 20 steps each, run by FeedRun.run, in a fresh process",
            figure: largest.summary("stepsPerSecond"),
            baseline: "a bare count of the same feed's step lines",
            baselineFigure: largest.summary("lineCountStepsPerSecond"),
            target: nil
        )
        let smallestRate = smallest.values["stepsPerSecond"] ?? 0
        for point in points.dropLast() {
            let rate = point.values["stepsPerSecond"] ?? 0
            let lines = point.values["lineCountStepsPerSecond"] ?? 0
            report.figures.append(
                BenchmarkReport.Figure(
                    name: "\(point.size) users", role: "variant", unit: "steps/s", median: rate,
                    min: point.values["stepsPerSecondMin"] ?? rate, max: point.values["stepsPerSecondMax"] ?? rate,
                    ratio: lines > 0 ? rate / lines : nil))
        }
        for point in points.dropFirst() where smallestRate > 0 {
            report.figures.append(
                PairedComparison.extra(
                    "steps/s at \(point.size) users / at \(smallest.size) users", unit: "ratio",
                    Summary([(point.values["stepsPerSecond"] ?? 0) / smallestRate])))
        }
        for point in points {
            if point.values["lineCountStepsPerSecond"] != nil {
                report.figures.append(
                    PairedComparison.extra(
                        "line count at \(point.size) users (baseline)", unit: "steps/s",
                        point.summary("lineCountStepsPerSecond")))
            }
            if let peak = point.values["peakRSSMiB"] {
                report.figures.append(
                    PairedComparison.extra("peak RSS at \(point.size) users", unit: "MiB", Summary([peak])))
            }
            if let growth = point.values["runRSSGrowthMiB"] {
                report.figures.append(
                    PairedComparison.extra(
                        "peak RSS above the loaded feed at \(point.size) users", unit: "MiB", Summary([growth])))
            }
        }
        if smallest.size != largest.size, let low = smallest.values["runRSSGrowthMiB"],
            let high = largest.values["runRSSGrowthMiB"]
        {
            report.figures.append(
                PairedComparison.extra(
                    "peak RSS per user, \(smallest.size) to \(largest.size) users", unit: "KiB",
                    Summary([(high - low) * 1024 / Double(largest.size - smallest.size)])))
        }
        addStateFigures(statePoints, memory: points, to: &report)
        report.points = points
        report.notes += notes
        report.notes.append(
            "feeds: FeedGenerator(users:, steps: 20 * users, seed: \(FeedScaling.seed)); users "
                + points.map { String($0.size) }.joined(separator: ", ")
                + "; with --state: each run on a new state file (StoreDurability.perStep, a commit per step)")
        return report
    }

    /// The figures of the runs on a state file: the rate at each size against the same child's line count, the rate
    /// at each size against the smallest's (a step must cost the same at every size there too), against the rate in
    /// memory, and the peak memory.
    private static func addStateFigures(
        _ points: [BenchmarkReport.Point], memory: [BenchmarkReport.Point], to report: inout BenchmarkReport
    ) {
        guard let smallest = points.first else { return }
        let smallestRate = smallest.values["stepsPerSecond"] ?? 0
        for (point, inMemory) in zip(points, memory) {
            let rate = point.values["stepsPerSecond"] ?? 0
            let lines = point.values["lineCountStepsPerSecond"] ?? 0
            report.figures.append(
                BenchmarkReport.Figure(
                    name: "with --state at \(point.size) users", role: "variant", unit: "steps/s", median: rate,
                    min: point.values["stepsPerSecondMin"] ?? rate, max: point.values["stepsPerSecondMax"] ?? rate,
                    ratio: lines > 0 ? rate / lines : nil))
            if point.size != smallest.size, smallestRate > 0 {
                report.figures.append(
                    PairedComparison.extra(
                        "with --state: steps/s at \(point.size) users / at \(smallest.size) users", unit: "ratio",
                        Summary([rate / smallestRate])))
            }
            if let memoryRate = inMemory.values["stepsPerSecond"], memoryRate > 0 {
                report.figures.append(
                    PairedComparison.extra(
                        "with --state / in memory at \(point.size) users", unit: "ratio", Summary([rate / memoryRate])))
            }
            if lines > 0 {
                report.figures.append(
                    PairedComparison.extra(
                        "line count beside --state at \(point.size) users (baseline)", unit: "steps/s",
                        point.summary("lineCountStepsPerSecond")))
            }
            if let peak = point.values["peakRSSMiB"] {
                report.figures.append(
                    PairedComparison.extra(
                        "peak RSS with --state at \(point.size) users", unit: "MiB", Summary([peak])))
            }
        }
    }
}
