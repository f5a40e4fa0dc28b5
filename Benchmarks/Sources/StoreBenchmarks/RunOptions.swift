/// The command line of `openstorekit-bench`.
struct RunOptions {
    /// Substrings; a benchmark runs if its name contains any of them (all run when empty).
    var filters: [String] = []
    /// Where to write the JSON results.
    var jsonPath: String?
    /// Where to write the `queue.scaling` chart.
    var svgPath: String?
    /// Each benchmark once with tiny sizes: a smoke test that takes seconds.
    var quick = false
    /// Measured rounds per benchmark.
    var samples = 11
    /// Rounds run and thrown away before measuring.
    var warmups = 2
    /// Leave out the 10^7 size of `queue.scaling`.
    var skipLargest = false
    /// List the benchmarks and stop.
    var list = false
    /// Print the usage and stop.
    var help = false
    /// Measure nothing: read this results file and print its table (and write its chart with `--svg`).
    var replotPath: String?
    /// Internal: run one part of a benchmark in this process and print its figures (`--child NAME ARGS...`).
    var child: (name: String, arguments: [String])?

    static let usage = """
        usage: openstorekit-bench [FILTER...] [--json FILE] [--svg FILE] [--quick] [--samples N] [--warmup N]
                                  [--skip-1e7] [--list] [--replot FILE]

          FILTER        run only benchmarks whose name contains FILTER (e.g. queue.pipeline, queue)
          --json FILE   write the results as JSON
          --svg FILE    write the queue.scaling chart (cost per transaction and peak memory against size)
          --quick       run each benchmark once with tiny sizes (smoke test, a few seconds)
          --samples N   measured rounds per benchmark (default 11)
          --warmup N    rounds thrown away before measuring (default 2)
          --skip-1e7    leave out the 10^7 size of queue.scaling (about 40 s on a 2-core machine)
          --list        list the benchmarks and exit
          --replot FILE measure nothing: print the table of a results file (and write its chart with --svg)

        Build in release: swift run -c release --package-path Benchmarks openstorekit-bench
        """

    /// Parses arguments (without the program name).
    init(arguments: [String]) throws {
        var rest = arguments[...]
        func value(_ flag: String) throws -> String {
            guard let next = rest.popFirst() else { throw BenchmarkError("\(flag) needs a value\n\n\(Self.usage)") }
            return next
        }
        func count(_ flag: String) throws -> Int {
            let text = try value(flag)
            guard let number = Int(text), number >= 0 else {
                throw BenchmarkError("\(flag) needs a whole number, not \"\(text)\"")
            }
            return number
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--json": jsonPath = try value(argument)
            case "--svg": svgPath = try value(argument)
            case "--quick": quick = true
            case "--samples": samples = Swift.max(1, try count(argument))
            case "--warmup": warmups = try count(argument)
            case "--skip-1e7": skipLargest = true
            case "--list": list = true
            case "--replot": replotPath = try value(argument)
            case "--child":
                child = (try value(argument), Array(rest))
                rest = []
            case "-h", "--help": help = true
            default:
                guard !argument.hasPrefix("-") else {
                    throw BenchmarkError("unknown option \(argument)\n\n\(Self.usage)")
                }
                filters.append(argument)
            }
        }
        if quick {
            samples = 1
            warmups = 0
        }
    }

    /// Whether a benchmark is selected by the filters.
    func selects(_ name: String) -> Bool {
        filters.isEmpty || filters.contains { name.contains($0) }
    }
}
