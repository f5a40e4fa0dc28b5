import Foundation
import Synchronization
import TestSupport
import Testing

@testable import OpenStoreKitCLI

/// A clock that moves on by a fixed step each time it is read, and what was written to standard error.
private final class Recorder: Sendable {
    let step: UInt64
    let time = Mutex<UInt64>(0)
    let written = Mutex<[String]>([])

    init(step: UInt64) { self.step = step }

    /// The time now, in nanoseconds; each reading is `step` later than the one before.
    func read() -> UInt64 {
        time.withLock { time in
            defer { time += step }
            return time
        }
    }

    func write(_ text: String) { written.withLock { $0.append(text) } }

    var lines: [String] { written.withLock { $0 } }
}

/// Runs the command in this process with standard error a terminal or not, and a clock that moves on a second each
/// time it is read.
private func run(_ arguments: [String], terminal: Bool) -> (code: Int32, err: String) {
    let recorder = Recorder(step: 1_000_000_000)
    var output = CommandLineTool.Output(out: { _ in }, err: { recorder.write($0) }, isTerminal: terminal)
    output.clock = { recorder.read() }
    let code = CommandLineTool(output: output).run(arguments)
    return (code, recorder.lines.joined())
}

@Suite("The progress line of a long run")
struct FeedProgressTests {
    @Test("The line gives the steps run and steps per second, with thousands separated, and the feeds when several")
    func format() {
        #expect(
            FeedProgress.line(steps: 1_204_331, nanoseconds: 10_000_000_000, finished: 0, feeds: 1)
                == "\r1,204,331 steps, 120,433 steps/s\u{1B}[K")
        #expect(
            FeedProgress.line(steps: 999, nanoseconds: 2_000_000_000, finished: 2, feeds: 3)
                == "\r[2/3] 999 steps, 500 steps/s\u{1B}[K")
        #expect(FeedProgress.grouped(0) == "0")
        #expect(FeedProgress.grouped(100) == "100")
        #expect(FeedProgress.grouped(1_000) == "1,000")
        #expect(FeedProgress.grouped(123_456_789) == "123,456,789")
    }

    @Test("Nothing is shown for the first two seconds, then at most one update each quarter of a second")
    func pacing() {
        let recorder = Recorder(step: 100_000_000)
        let progress = FeedProgress(feeds: 1, clock: { recorder.read() }, write: { recorder.write($0) })
        // The clock reads 0 at the start, then 0.1 s more at each step.
        for _ in 0..<19 { progress.stepped() }
        #expect(recorder.lines.isEmpty, "1.9 s: nothing yet")
        progress.stepped()
        #expect(recorder.lines == ["\r20 steps, 10 steps/s\u{1B}[K"])
        progress.stepped()
        progress.stepped()
        #expect(recorder.lines.count == 1, "0.2 s after the last update: none")
        progress.stepped()
        #expect(recorder.lines.last == "\r23 steps, 10 steps/s\u{1B}[K")
        progress.end()
        #expect(recorder.lines.last == "\r\u{1B}[K", "the line is cleared at the end")
    }

    @Test("A run that ends within two seconds shows nothing, and clears nothing")
    func shortRun() {
        let recorder = Recorder(step: 1_000_000)
        let progress = FeedProgress(feeds: 1, clock: { recorder.read() }, write: { recorder.write($0) })
        for _ in 0..<100 { progress.stepped() }
        progress.end()
        #expect(recorder.lines.isEmpty)
    }

    @Test("run shows its progress on standard error when it is a terminal, and none when it is not")
    func terminalOnly() throws {
        let temporary = try TemporaryDirectory(prefix: "openstorekit-progress")
        defer { temporary.remove() }
        let feed = temporary.url.appendingPathComponent("long.feed")
        try Data("buy com.example.coins100\nadvance 1d\nbuy com.example.pro\nexpect owned com.example.pro\n".utf8)
            .write(to: feed)

        let terminal = run(["run", feed.path], terminal: true)
        #expect(terminal.code == 0)
        #expect(terminal.err.contains(" steps/s\u{1B}[K"), "\(terminal.err.debugDescription)")
        #expect(terminal.err.contains("\r\u{1B}[KPASS"), "the line is cleared before the verdict")

        let redirected = run(["run", feed.path], terminal: false)
        #expect(redirected.code == 0)
        #expect(redirected.err.hasPrefix("PASS"), "\(redirected.err.debugDescription)")
        #expect(!redirected.err.contains("steps/s"))
        #expect(!redirected.err.contains("\r"))
    }
}
