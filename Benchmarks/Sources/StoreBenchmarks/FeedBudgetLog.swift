import FeedRunner
import Foundation

/// The event log of a timed feed run: it discards every line, as `DiscardingEventLog` does, but watches the clock,
/// so that a run that outlasts its time budget can be stopped at the next step. When the budget runs out it calls
/// `expired` with the feed line of the step about to run and the nanoseconds since the run began; `expired` ends the
/// process (a child process replies with what it measured so far).
final class FeedBudgetLog: EventLogSink {
    private let start: UInt64
    private let deadline: UInt64
    private let expired: (_ line: Int, _ nanoseconds: UInt64) -> Never
    private var appended = 0
    private var overdue = false

    /// Starts the clock now, with `seconds` of budget.
    init(seconds: Double, expired: @escaping (_ line: Int, _ nanoseconds: UInt64) -> Never) {
        start = Stopwatch.now()
        deadline = start + UInt64(seconds * 1e9)
        self.expired = expired
    }

    /// Discards the line; past the deadline, stops at the first step event.
    func append(_ line: String) {
        appended &+= 1
        if !overdue {
            guard appended & 0xFF == 0, Stopwatch.now() > deadline else { return }
            overdue = true
        }
        // Step events read {"seq":N,"time":"...","event":"step","line":L,"step":"..."}.
        guard line.contains("\"event\":\"step\""), let range = line.range(of: "\"line\":") else { return }
        let digits = line[range.upperBound...].prefix { $0.isNumber }
        guard let number = Int(digits) else { return }
        expired(number, Stopwatch.now() - start)
    }
}
