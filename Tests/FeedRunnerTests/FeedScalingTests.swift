import Foundation
import Testing

@testable import FeedRunner

@Suite("The work of a feed step does not grow with the feed")
struct FeedScalingTests {
    @Test("Forgetting superseded transactions looks at a bounded number of them per step, however many are tracked")
    func forgettingIsLinear() throws {
        var text = ""
        FeedGenerator(users: 2_500, steps: 50_000, seed: 7).write { text += $0 + "\n" }
        let interpreter = try FeedInterpreter(file: "generated.feed", baseDirectory: nil, sink: DiscardingEventLog())
        let result = try interpreter.run(.text(text))
        #expect(result.passed, "\(String(describing: result.failure))")
        // The run tracked more transactions than the least number the pass looks through, so the pass ran.
        #expect(interpreter.world.trackedVisited > FeedWorld.forgetFloor)
        #expect(interpreter.world.trackedVisited <= 4 * result.steps)
    }
}

@Suite("Generated feeds")
struct FeedGeneratorScalingTests {
    /// The store time the `advance` steps of a generated feed of 20 steps per user add up to, in seconds.
    private static func span(users: Int) -> Double {
        var seconds = 0.0
        FeedGenerator(users: users, steps: 20 * users, seed: 7).write { line in
            guard line.hasPrefix("advance "), let duration = FeedDuration(words: [String(line.dropFirst(8))]) else {
                return
            }
            seconds += duration.seconds
        }
        return seconds
    }

    @Test("A feed of 20 steps per user spans about the same store time for 1,000 and 10,000 users")
    func spanDoesNotGrow() {
        let small = Self.span(users: 1_000)
        let large = Self.span(users: 10_000)
        #expect(small > 0)
        #expect(large / small < 1.25 && large / small > 0.8, "\(small) s for 1,000 users, \(large) s for 10,000")
    }

    @Test("Feeds of up to 1,000 users advance in whole minutes, as before")
    func smallFeedsInMinutes() {
        var advances: [String] = []
        FeedGenerator(users: 1_000, steps: 2_000, seed: 7).write { if $0.hasPrefix("advance ") { advances.append($0) } }
        #expect(!advances.isEmpty)
        #expect(advances.allSatisfy { $0.hasSuffix("m") })
    }
}
