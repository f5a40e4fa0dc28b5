import Synchronization

/// The progress line of `openstorekit run` on a terminal: steps run so far and steps per second, rewritten in place
/// on standard error once a run has lasted ``delay`` nanoseconds, at most once per ``interval``; with several feeds,
/// also how many have finished.
final class FeedProgress: Sendable {
    /// How long a run goes before its progress is shown, in nanoseconds: shorter runs show none.
    static let delay: UInt64 = 2_000_000_000
    /// The least time between two updates of the line, in nanoseconds.
    static let interval: UInt64 = 250_000_000

    private struct State {
        var steps = 0
        var finished = 0
        var shownAt: UInt64?
    }

    private let feeds: Int
    private let start: UInt64
    private let clock: @Sendable () -> UInt64
    private let write: @Sendable (String) -> Void
    private let state = Mutex(State())

    /// Creates the progress of a run of `feeds` feeds starting now, reading `clock` (nanoseconds, monotonic) and
    /// writing the line with `write`.
    init(feeds: Int, clock: @escaping @Sendable () -> UInt64, write: @escaping @Sendable (String) -> Void) {
        self.feeds = feeds
        self.clock = clock
        self.start = clock()
        self.write = write
    }

    /// Counts one more step run, and rewrites the line when it is due.
    func stepped() {
        let now = clock()
        let line = state.withLock { state -> String? in
            state.steps += 1
            let elapsed = now &- start
            guard elapsed >= Self.delay else { return nil }
            if let shownAt = state.shownAt, now &- shownAt < Self.interval { return nil }
            state.shownAt = now
            return Self.line(steps: state.steps, nanoseconds: elapsed, finished: state.finished, feeds: feeds)
        }
        if let line { write(line) }
    }

    /// Notes that a feed finished, and shows which (with several feeds).
    func finished(_ path: String) {
        guard feeds > 1 else { return }
        let finished = state.withLock { state in
            state.finished += 1
            return state.finished
        }
        write("\r[\(finished)/\(feeds)] \(path)\u{1B}[K")
    }

    /// Clears the line, if anything was shown, before the verdicts are written.
    func end() {
        let shown = state.withLock { $0.shownAt != nil || $0.finished > 0 }
        if shown { write("\r\u{1B}[K") }
    }

    /// The line for `steps` steps run in `nanoseconds`, such as `\r[1/3] 1,204,331 steps, 118,020 steps/s` (with
    /// the erase-to-end-of-line sequence), the count of feeds only when there are several.
    static func line(steps: Int, nanoseconds: UInt64, finished: Int, feeds: Int) -> String {
        let rate = nanoseconds > 0 ? Int((Double(steps) * 1e9 / Double(nanoseconds)).rounded()) : 0
        let prefix = feeds > 1 ? "[\(finished)/\(feeds)] " : ""
        return "\r\(prefix)\(grouped(steps)) steps, \(grouped(rate)) steps/s\u{1B}[K"
    }

    /// A whole number with its thousands separated by commas: `1,204,331`.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return value < 0 ? "-" + result : result
    }
}
