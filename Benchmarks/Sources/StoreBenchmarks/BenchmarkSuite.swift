/// Every benchmark, registered by area: each area adds its own in an extension of its own file
/// (`extension BenchmarkSuite { mutating func addQueueBenchmarks() }` in `QueueBenchmarks.swift`).
struct BenchmarkSuite {
    /// What a child process runs: it gets its arguments and returns the numbers to print.
    typealias ChildBody = ([String]) throws -> [String: Double]

    /// The options, so that areas can pick their sizes (``RunOptions/quick`` means tiny ones).
    let options: RunOptions
    /// The benchmarks, in the order they were added.
    private(set) var benchmarks: [Benchmark] = []
    /// The parts of benchmarks that run in child processes, by name.
    private(set) var children: [String: ChildBody] = [:]

    /// Creates the suite with every area's benchmarks.
    init(options: RunOptions) {
        self.options = options
        addQueueBenchmarks()
        addReceiptBenchmarks()
        addSubscriptionBenchmarks()
        addFeedBenchmarks()
        addLedgerBenchmarks()
        addJWSBenchmarks()
        addServerBenchmarks()
        addServerDatabaseBenchmarks()
        addStoreKit2Benchmarks()
        // Add new areas here, one line each: addReceiptBenchmarks(), addLedgerBenchmarks(), ...
    }

    /// Adds a benchmark; names must be unique.
    mutating func add(_ benchmark: Benchmark) {
        precondition(!benchmarks.contains { $0.name == benchmark.name }, "two benchmarks are named \(benchmark.name)")
        benchmarks.append(benchmark)
    }

    /// Registers a part of a benchmark that ``BenchmarkContext/child(_:_:)`` runs in a fresh process.
    mutating func addChild(_ name: String, _ body: @escaping ChildBody) {
        precondition(children[name] == nil, "two child bodies are named \(name)")
        children[name] = body
    }
}
