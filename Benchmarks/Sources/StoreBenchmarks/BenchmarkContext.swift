/// What a custom benchmark gets from the runner: the options and a way to run itself in a child process.
struct BenchmarkContext {
    /// The command-line options.
    var options: RunOptions

    /// Runs `openstorekit-bench --child <name> <arguments>` in a fresh process and returns the figures it printed.
    func child(_ name: String, _ arguments: [String]) throws -> [String: Double] {
        try ChildProcess.run(name, arguments)
    }
}
