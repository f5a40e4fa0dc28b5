extension BenchmarkSuite {
    /// `feed.run`: generated feeds run end to end, with peak memory at two sizes.
    mutating func addFeedBenchmarks() {
        let options = self.options
        addChild("feed.run", FeedScaling.child)
        add(
            Benchmark(
                name: "feed.run",
                unit: "steps/s",
                about: """
                    Steps per second of a generated one-million-step feed (FeedGenerator, FeedRun.run), seconds of \
                    store time simulated per wall second, and peak resident memory at 10^5 and 10^6 steps, each \
                    size in a fresh process. Baseline: FeedParser.validate of the same text (the parsing every run \
                    does first), and a bare count of its step lines.
                    """,
                target: nil,
                body: .custom { context in try FeedScaling.run(context, options: options) }
            )
        )
    }
}
