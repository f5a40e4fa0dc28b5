import TestSupport
import Testing

@Suite("crash-workload goes on from the state it finds")
struct CrashWorkloadRestartTests {
    @Test("A state past the steps asked for runs no step and says so, without crashing")
    func fewerStepsThanDone() throws {
        let temporary = try TemporaryDirectory(prefix: "crash-workload-restart")
        defer { temporary.remove() }
        let state = temporary.path + "/state.sqlite"
        let first = runInProcess(["crash-workload", "--state", state, "--seed", "1", "--steps", "3"])
        #expect(first.code == 0, "\(first.err)")
        let second = runInProcess(["crash-workload", "--state", state, "--seed", "1", "--steps", "1"])
        #expect(second.code == 0, "\(second.err)")
        #expect(second.out.contains("start 3"))
        #expect(!second.out.contains("ack "))
        #expect(second.out.contains("done"))
    }
}
