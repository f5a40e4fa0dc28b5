extension BenchmarkSuite {
    /// `feed.run`: generated feeds run end to end, with peak memory at two sizes; `feed.scaling`: feeds of 20 steps per
    /// user at three numbers of users.
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
        add(
            Benchmark(
                name: "feed.scaling",
                unit: "steps/s",
                about: """
                    Steps per second and peak resident memory of generated feeds of 20 steps per user at 1,000, \
                    10,000 and 50,000 users (FeedGenerator, FeedRun.run), each size in a fresh process, in memory and \
                    on a state file (as run --state): a step must cost the same at every size. Baseline: a bare count \
                    of the same feed's step lines, in the same process.
                    """,
                target: nil,
                body: .custom { context in try FeedUserScaling.run(context, options: options) }
            )
        )
    }
}
