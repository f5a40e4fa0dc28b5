import Dispatch
import StoreSimulator
import Synchronization
import Testing

/// Lane work that writes down what it was asked to do, and can enqueue more.
private final class Recorder: Sendable {
    let log = Mutex<[String]>([])
    let lane: StoreLane

    init(lane: StoreLane) { self.lane = lane }

    var entries: [String] { log.withLock { $0 } }

    /// Work that writes down an operation and an identifier; operation 1 enqueues operation 0 of `id + 100`.
    func task(_ operation: Int, _ id: UInt64) -> @Sendable () -> Void {
        { [self] in
            log.withLock { $0.append("task \(operation) \(id)") }
            if operation == 1 { lane.enqueue(task(0, id + 100)) }
        }
    }

    func closure(_ name: String) -> @Sendable () -> Void {
        { [self] in log.withLock { $0.append(name) } }
    }
}

@Suite("Store lane")
struct StoreLaneTests {
    @Test("A manual lane runs work in the order they were enqueued, then what they enqueued")
    func order() {
        let lane = StoreLane(mode: .manual)
        let recorder = Recorder(lane: lane)
        lane.enqueue(recorder.closure("a"))
        lane.enqueue(recorder.task(1, 7))
        lane.enqueue(recorder.closure("b"))
        lane.enqueue(recorder.task(2, 8))
        #expect(lane.pendingCount == 4)
        #expect(recorder.entries.isEmpty, "nothing runs before runUntilIdle")
        #expect(lane.runUntilIdle() == 5, "four items and the one the second enqueued")
        #expect(recorder.entries == ["a", "task 1 7", "b", "task 2 8", "task 0 107"])
        #expect(lane.pendingCount == 0)
        #expect(lane.runUntilIdle() == 0)
    }

    @Test("Long runs keep their order however the lane's storage is reused")
    func longRuns() {
        let lane = StoreLane(mode: .manual)
        let recorder = Recorder(lane: lane)
        var expected: [String] = []
        var next: UInt64 = 0
        for round in 1...40 {
            for _ in 0..<(round * 37 % 200) {
                lane.enqueue(recorder.task(2, next))
                expected.append("task 2 \(next)")
                next += 1
            }
            if round % 3 != 0 { lane.runUntilIdle() }
        }
        lane.runUntilIdle()
        #expect(recorder.entries == expected)
    }

    @Test("A dispatch lane runs tasks on its queue, in order")
    func dispatch() async {
        let lane = StoreLane(mode: .dispatch(DispatchQueue(label: "lane tests")))
        let recorder = Recorder(lane: lane)
        for id: UInt64 in 1...50 { lane.enqueue(recorder.task(2, id)) }
        await lane.idle()
        #expect(recorder.entries == (1...50).map { "task 2 \($0)" })
    }
}
