import FeedRunner
import Foundation

/// `feed.run`: the parent writes generated feeds of each size to a temporary folder and runs each in a fresh child
/// process, which times the run beside its baselines and reports its own peak resident memory.
enum FeedScaling {
    /// The seed of every generated feed, so that every run measures the same feeds.
    static let seed: UInt64 = 2_026

    /// The sizes in steps: 10^5 and 10^6, or tiny ones under `--quick`.
    static func sizes(_ options: RunOptions) -> [Int] {
        options.quick ? [1_000, 10_000] : [100_000, 1_000_000]
    }

    /// Users in a feed of `steps` steps: one per 20 steps, as `openstorekit generate` has it by default.
    /// A fixed population, so a longer feed is more activity of the same users: memory must then stay flat.
    static func users(_ steps: Int) -> Int { min(1_000, max(1, steps / 20)) }

    /// The most timed rounds at a size, after the first run that sets the peak memory: fewer for large feeds.
    static func samples(at size: Int, _ options: RunOptions) -> Int {
        options.quick ? 1 : max(1, min(options.samples, 3_000_000 / size))
    }

    /// Wall seconds a child may spend running its feed: a first run that takes longer is stopped there, and the
    /// timed rounds after it are as many as fit.
    static func budget(_ options: RunOptions) -> Double { options.quick ? 30 : 120 }

    /// The parent: generate, run one child per size, and report.
    static func run(_ context: BenchmarkContext, options: RunOptions) throws -> BenchmarkReport {
        let folder = try FeedScaling.makeFolder("feeds")
        defer { try? FileManager.default.removeItem(at: folder) }

        var points: [BenchmarkReport.Point] = []
        var notes: [String] = []
        for size in sizes(options) {
            let file = folder.appendingPathComponent("generated-\(size).feed")
            try write(FeedGenerator(users: users(size), steps: size, seed: seed), to: file)
            let samples = samples(at: size, options)
            let budget = budget(options)
            log(
                "  feed.run: \(size) steps, \(users(size)) users, up to \(samples) timed run(s) within "
                    + "\(Int(budget)) s, fresh process")
            let figures = try context.child("feed.run", [file.path, String(samples), String(budget)])
            points.append(BenchmarkReport.Point(size: size, values: figures))
            logRun(figures, subject: "the \(size)-step feed", budget: budget, notes: &notes)
        }
        guard let largest = points.last, let smallest = points.first else {
            throw BenchmarkError("feed.run measured no size")
        }
        var report = BenchmarkReport(
            name: "feed.run",
            unit: "steps/s",
            about: "a generated feed of \(largest.size) steps run by FeedRun.run, in a fresh process",
            figure: largest.summary("stepsPerSecond"),
            baseline: "FeedParser.validate of the same text (parsing only)",
            baselineFigure: largest.summary("validateStepsPerSecond"),
            target: nil
        )
        let headline = largest.values["stepsPerSecond"] ?? 0
        for point in points.reversed() where point.values["simulatedSecondsPerWallSecond"] != nil {
            report.figures.append(
                PairedComparison.extra(
                    "store time simulated per wall second at \(point.size) steps", unit: "store s per wall s",
                    point.summary("simulatedSecondsPerWallSecond")))
        }
        if let lines = largest.values["lineCountStepsPerSecond"], lines > 0 {
            report.figures.append(
                BenchmarkReport.Figure(
                    name: "bare line count of the same text", role: "baseline", unit: "steps/s", median: lines,
                    min: largest.values["lineCountStepsPerSecondMin"] ?? lines,
                    max: largest.values["lineCountStepsPerSecondMax"] ?? lines, ratio: headline / lines))
        }
        for point in points.dropLast() {
            let rate = point.values["stepsPerSecond"] ?? 0
            let validate = point.values["validateStepsPerSecond"] ?? 0
            report.figures.append(
                BenchmarkReport.Figure(
                    name: "\(point.size) steps", role: "variant", unit: "steps/s", median: rate,
                    min: point.values["stepsPerSecondMin"] ?? rate, max: point.values["stepsPerSecondMax"] ?? rate,
                    ratio: validate > 0 ? rate / validate : nil))
        }
        for point in points {
            let stepsRun = point.values["stepsCompleted"] ?? point.values["steps"] ?? Double(point.size)
            if point.values["stopped"] == 1 {
                report.figures.append(
                    PairedComparison.extra(
                        "steps run within the budget at \(point.size) steps", unit: "steps", Summary([stepsRun])))
            }
            if let peak = point.values["peakRSSMiB"] {
                report.figures.append(
                    PairedComparison.extra("peak RSS at \(point.size) steps", unit: "MiB", Summary([peak])))
            }
            if let text = point.values["textMiB"] {
                report.figures.append(
                    PairedComparison.extra("feed text at \(point.size) steps", unit: "MiB", Summary([text])))
            }
            if let growth = point.values["runRSSGrowthMiB"] {
                report.figures.append(
                    PairedComparison.extra(
                        "peak RSS above the loaded feed at \(point.size) steps", unit: "MiB", Summary([growth])))
            }
        }
        if smallest.size != largest.size, smallest.values["stopped"] == nil, largest.values["stopped"] == nil,
            let low = smallest.values["runRSSGrowthMiB"], let high = largest.values["runRSSGrowthMiB"]
        {
            report.figures.append(
                PairedComparison.extra(
                    "peak RSS growth per 1000 more steps, \(smallest.size) to \(largest.size)", unit: "KiB",
                    Summary([(high - low) * 1024 / Double(largest.size - smallest.size) * 1000])))
        }
        report.points = points
        report.notes += notes
        report.notes.append(
            "feeds: FeedGenerator(users: min(1000, steps / 20), steps:, seed: \(seed)); sizes "
                + points.map { String($0.size) }.joined(separator: ", "))
        return report
    }

    /// Logs a `feed.run` child's rate and peak memory (after `prefix`), and, if the child stopped at its time budget, a
    /// note that `subject` was stopped there, logged and kept in `notes`.
    static func logRun(
        _ figures: [String: Double], prefix: String = "", subject: String, budget: Double, notes: inout [String]
    ) {
        if let rate = figures["stepsPerSecond"], let peak = figures["peakRSSMiB"] {
            log("    \(prefix)\(Format.number(rate)) steps/s, peak RSS \(Format.significant(peak)) MiB")
        }
        if figures["stopped"] == 1, let completed = figures["stepsCompleted"] {
            let note =
                "\(subject) was stopped at the \(Int(budget)) s budget after \(Int(completed)) steps; "
                + "its rate and memory cover those steps"
            log("    \(note)")
            notes.append(note)
        }
    }

    /// A new, empty temporary folder for one benchmark's generated feeds (`openstorekit-bench-NAME-PID`); the caller
    /// removes it.
    static func makeFolder(_ name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("openstorekit-bench-\(name)-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: folder)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw BenchmarkError("cannot make the folder \(folder.path) for generated feeds: \(error)")
        }
        return folder
    }

    /// Writes a generated feed to `file`, 64 KiB at a time.
    static func write(_ generator: FeedGenerator, to file: URL) throws {
        guard FileManager.default.createFile(atPath: file.path, contents: nil),
            let handle = try? FileHandle(forWritingTo: file)
        else { throw BenchmarkError("cannot write the generated feed \(file.path)") }
        defer { try? handle.close() }
        var buffer = ""
        generator.write { line in
            buffer += line
            buffer += "\n"
            if buffer.utf8.count >= 1 << 16 {
                handle.write(Data(buffer.utf8))
                buffer = ""
            }
        }
        handle.write(Data(buffer.utf8))
    }

    /// The child: read the feed, time a validation and a line count, run it once (which sets the peak memory), then
    /// time further runs, validations and line counts in turns, as many rounds as the budget leaves room for.
    ///
    /// Arguments: the feed's path, the most timed rounds, the time budget in seconds, and optionally `state`: each run
    /// keeps its store in a new state file, as `openstorekit run --state` does, in a new folder beside the feed that is
    /// removed after the run (outside the time). A first run that outlasts the budget is stopped at its next step and
    /// reported as far as it got (`stopped` = 1).
    static func child(_ arguments: [String]) throws -> [String: Double] {
        guard arguments.count == 3 || (arguments.count == 4 && arguments[3] == "state"),
            let samples = Int(arguments[1]), samples > 0, let budget = Double(arguments[2]), budget > 0
        else {
            throw BenchmarkError("feed.run child needs FEED SAMPLES BUDGET-SECONDS [state], got \(arguments)")
        }
        let path = arguments[0]
        let durable = arguments.count == 4
        let name = URL(fileURLWithPath: path).lastPathComponent
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw BenchmarkError("cannot read the generated feed \(path)")
        }
        let startKiB = ProcessMemory.residentKiB ?? 0
        let parser = FeedParser(file: name)
        let lines = LineCountBaseline(text: text)
        let steps = lines.count()
        var figures: [String: Double] = [
            "steps": Double(steps),
            "textMiB": Double(text.utf8.count) / 1_048_576,
            "startRSSMiB": Double(startKiB) / 1024,
        ]
        var runRates: [Double] = []
        var simulatedRates: [Double] = []
        var validateRates: [Double] = []
        var lineRates: [Double] = []
        func rate(_ nanoseconds: UInt64, _ items: Int) -> Double { Double(items) * 1e9 / Double(max(nanoseconds, 1)) }
        func validate() throws {
            let (validated, nanoseconds) = try Stopwatch.time { () throws(FeedError) -> Int in
                try parser.validate(text)
            }
            guard validated == steps else {
                throw BenchmarkError("FeedParser.validate counted \(validated) steps, the line count \(steps)")
            }
            validateRates.append(rate(nanoseconds, steps))
        }
        func countLines() {
            let (counted, nanoseconds) = Stopwatch.time { lines.count() }
            lineRates.append(rate(nanoseconds, counted))
        }
        func summarize() {
            for (key, rates) in [
                ("stepsPerSecond", runRates), ("simulatedSecondsPerWallSecond", simulatedRates),
                ("validateStepsPerSecond", validateRates), ("lineCountStepsPerSecond", lineRates),
            ] where !rates.isEmpty {
                let summary = Summary(rates)
                figures[key] = summary.median
                figures[key + "Min"] = summary.min
                figures[key + "Max"] = summary.max
            }
            let peakKiB = ProcessMemory.peakResidentKiB ?? 0
            figures["peakRSSMiB"] = Double(peakKiB) / 1024
            figures["runRSSGrowthMiB"] = Double(peakKiB - startKiB) / 1024
        }
        var runs = 0
        func run(_ log: any EventLogSink) throws -> UInt64 {
            runs += 1
            let folder = URL(fileURLWithPath: path + ".state-\(ProcessInfo.processInfo.processIdentifier)-\(runs)")
            var statePath: String?
            if durable {
                try? FileManager.default.removeItem(at: folder)
                do {
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                } catch {
                    throw BenchmarkError("cannot make the folder \(folder.path) for a state file: \(error)")
                }
                statePath = folder.appendingPathComponent("state.sqlite").path
            }
            defer { if durable { try? FileManager.default.removeItem(at: folder) } }
            let (result, nanoseconds) = try Stopwatch.time { () throws(FeedError) -> FeedResult in
                try FeedRun.run(text, file: name, log: log, statePath: statePath)
            }
            guard result.passed else {
                throw BenchmarkError("the generated feed failed: \(result.failure.map(String.init(describing:)) ?? "")")
            }
            guard result.steps == steps else {
                throw BenchmarkError("the feed ran \(result.steps) steps; its text has \(steps)")
            }
            runRates.append(rate(nanoseconds, steps))
            simulatedRates.append(result.simulatedSeconds * 1e9 / Double(max(nanoseconds, 1)))
            figures["simulatedSeconds"] = result.simulatedSeconds
            return nanoseconds
        }

        // The baselines first, so that they are there even if the run is stopped.
        try validate()
        countLines()
        let budgetLog = FeedBudgetLog(seconds: budget) { line, nanoseconds in
            let completed = lines.count(before: line)
            runRates.append(rate(nanoseconds, completed))
            figures["stopped"] = 1
            figures["stepsCompleted"] = Double(completed)
            figures["secondsRun"] = Double(nanoseconds) / 1e9
            summarize()
            do {
                try ChildProcess.reply(figures)
                exit(0)
            } catch {
                log("feed.run child: \(error)")
                exit(1)
            }
        }
        let first = try run(budgetLog)
        // Peak memory is read after the first run, before anything else could raise it.
        let firstPeakKiB = ProcessMemory.peakResidentKiB ?? 0
        let rounds = min(samples, Int(budget * 1e9 / Double(max(first, 1))) - 1)
        if rounds > 0 {
            runRates.removeAll()
            simulatedRates.removeAll()
            for round in 0..<rounds {
                for step in 0..<3 {
                    switch (round + step) % 3 {
                    case 0: _ = try run(DiscardingEventLog())
                    case 1: try validate()
                    default: countLines()
                    }
                }
            }
        }
        summarize()
        figures["peakRSSMiB"] = Double(firstPeakKiB) / 1024
        figures["runRSSGrowthMiB"] = Double(firstPeakKiB - startKiB) / 1024
        figures["samples"] = Double(runRates.count)
        return figures
    }
}
