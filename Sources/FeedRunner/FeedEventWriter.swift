import Foundation
import StoreModels

/// Writes a feed run's event log: numbers its lines in order and dates them by the store's clock. For a run whose log
/// is discarded, it builds no line but still numbers them (offer nonces are made from the numbers).
final class FeedEventWriter {
    let sink: any EventLogSink
    /// Whether event lines are built: not when ``sink`` discards them.
    let logs: Bool
    let clock: ManualClock
    /// The number of the last line.
    private(set) var sequence = 0

    init(sink: any EventLogSink, clock: ManualClock) {
        self.sink = sink
        self.logs = !(sink is DiscardingEventLog)
        self.clock = clock
    }

    /// Takes the next line number.
    func nextSequence() -> Int {
        sequence += 1
        return sequence
    }

    /// Starts a line with the next number, dated `time`, or now by the clock.
    func line(_ event: String, time: Date? = nil) -> EventLine {
        EventLine(logging: logs, seq: nextSequence(), time: time ?? clock.now, event: event)
    }

    /// Starts a line with a number already taken, dated now by the clock.
    func line(_ event: String, seq: Int) -> EventLine {
        EventLine(logging: logs, seq: seq, time: clock.now, event: event)
    }

    /// Appends a line to the log.
    func write(_ line: EventLine) {
        sink.append(line.line)
    }
}
