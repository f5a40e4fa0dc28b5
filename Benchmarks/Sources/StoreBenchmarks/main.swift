import Foundation

// openstorekit-bench: OpenStoreKit's benchmarks, each next to a baseline measured in the same process and run.
// Progress goes to standard error, the summary table to standard output.

let debugBanner = """

    ************************************************************************
    *  DEBUG BUILD: these figures mean nothing.                            *
    *  Run:  swift run -c release --package-path Benchmarks                *
    *        openstorekit-bench                                            *
    ************************************************************************

    """

let options: RunOptions
do {
    options = try RunOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    log("\(error)")
    exit(2)
}

if options.help {
    print(RunOptions.usage)
    exit(0)
}

let suite = BenchmarkSuite(options: options)

if let child = options.child {
    guard let body = suite.children[child.name] else {
        log("no child body is named \(child.name); known: \(suite.children.keys.sorted().joined(separator: ", "))")
        exit(2)
    }
    do {
        try ChildProcess.reply(try body(child.arguments))
        exit(0)
    } catch {
        log("child \(child.name): \(error)")
        exit(1)
    }
}

if options.list {
    for benchmark in suite.benchmarks { print("\(benchmark.name)\n    \(benchmark.about)\n") }
    exit(0)
}

/// Writes the `queue.scaling` chart of `reports`, if there is one; returns whether that went well.
func writeChart(_ reports: [BenchmarkReport], machine: MachineInfo, to path: String) -> Bool {
    guard let report = reports.first(where: { $0.name == "queue.scaling" }),
        let chart = ScalingChart(report: report, machine: machine)
    else {
        log("--svg: queue.scaling did not run, so there is no chart to write")
        return true
    }
    do {
        try chart.render().write(toFile: path, atomically: true, encoding: .utf8)
        log("wrote \(path)")
        return true
    } catch {
        log("could not write \(path): \(error)")
        return false
    }
}

if let path = options.replotPath {
    do {
        let results = try ResultsFile(contentsOf: path)
        print(MarkdownTable.render(results.benchmarks, machine: results.machine, quick: results.quick))
        if let svgPath = options.svgPath, !writeChart(results.benchmarks, machine: results.machine, to: svgPath) {
            exit(1)
        }
        exit(0)
    } catch {
        log("could not read \(path) as a results file: \(error)")
        exit(2)
    }
}

#if DEBUG
    log(debugBanner)
#endif

let machine = MachineInfo.current()
let selected = suite.benchmarks.filter { options.selects($0.name) }
guard !selected.isEmpty else {
    log("no benchmark matches \(options.filters); --list shows them")
    exit(2)
}
log(
    "openstorekit-bench: \(selected.count) benchmark(s), \(options.samples) sample(s) after \(options.warmups) warm-up"
        + " round(s)\(options.quick ? " (--quick)" : "")\n\(machine.cpu), \(machine.cores) cores, \(machine.build) build"
)

var reports: [BenchmarkReport] = []
var failures = 0
let runner = Runner(options: options)
for benchmark in selected {
    log("\(benchmark.name) ...")
    do {
        let report = try runner.run(benchmark)
        reports.append(report)
        log(
            "  \(Format.number(report.median)) \(report.unit) [\(Format.number(report.min)) – "
                + "\(Format.number(report.max))], baseline \(Format.number(report.baselineMedian)), "
                + "ratio \(Format.ratio(report.ratio))"
                + (report.target.map { " (target ≥ \(Format.ratio($0)))" } ?? "")
        )
    } catch {
        failures += 1
        log("  FAILED: \(error)")
    }
}

print(MarkdownTable.render(reports, machine: machine, quick: options.quick))

if let path = options.jsonPath {
    do {
        try ResultsFile(
            machine: machine,
            quick: options.quick,
            peakResidentKiB: ProcessMemory.peakResidentKiB,
            benchmarks: reports
        )
        .write(to: path)
        log("wrote \(path)")
    } catch {
        failures += 1
        log("could not write \(path): \(error)")
    }
}

if let path = options.svgPath, !writeChart(reports, machine: machine, to: path) {
    failures += 1
}

#if DEBUG
    log(debugBanner)
#endif

exit(failures == 0 ? 0 : 1)
