import Foundation
import OpenStoreKitCLI
import StoreSimulator
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("One process owns a state file")
struct StateOwnershipTests {
    @Test("A second process on a state file in use is refused at once, naming the file and the owner's pid")
    func secondProcessIsRefused() throws {
        let temporary = try TemporaryDirectory(prefix: "state-owner")
        defer { temporary.remove() }
        let directory = temporary.path
        let state = directory + "/same.sqlite"
        // The first process opens the file and goes on working on it (far more steps than it has time for).
        let owner = try ChildProcess(
            ["crash-workload", "--state", state, "--seed", "7", "--steps", "10000000"], errorLog: directory + "/1.log")
        var started = false
        defer { owner.kill9() }
        while let line = owner.readLine() {
            if line.hasPrefix("start") {
                started = true
                break
            }
        }
        try #require(started, "the first process did not start: \(owner.errors)")

        // A second process: refused at once, with the file and the first process's pid.
        let second = try ChildProcess(
            ["crash-workload", "--state", state, "--seed", "7", "--steps", "5"], errorLog: directory + "/2.log")
        while second.readLine() != nil {}
        #expect(second.waitForExit() == 2)
        #expect(second.errors.contains(state), "\(second.errors)")
        #expect(second.errors.contains("in use by process \(owner.pid)"), "\(second.errors)")
        #expect(second.errors.contains("another state file"), "\(second.errors)")

        // `run --state` in this process is refused the same way, before it runs a single step.
        let feed = directory + "/buy.feed"
        try Data("buy com.example.pro\nexpect history 1\n".utf8).write(to: URL(fileURLWithPath: feed))
        let run = runInProcess(["run", feed, "--state", state])
        #expect(run.code == 2)
        #expect((run.out + run.err).contains("in use by process \(owner.pid)"), "\(run.out)\(run.err)")

        // The owner was not disturbed: it goes on acknowledging steps, a purchase among them (committed once
        // acknowledged, so the file holds a transaction when the process is killed below).
        var acknowledged = false
        while let line = owner.readLine() {
            if line.hasPrefix("ack"), line.contains(" buy ") {
                acknowledged = true
                break
            }
        }
        #expect(acknowledged, "\(owner.errors)")

        // Killed with SIGKILL, it leaves its lock file, which no longer blocks anyone.
        #expect(owner.kill9() == -SIGKILL)
        #expect(FileManager.default.fileExists(atPath: state + ".lock"))
        let store = try SimulatedStore(statePath: state, lane: .manual)
        #expect(!store.allTransactions().isEmpty)
        try store.close()
        #expect(!FileManager.default.fileExists(atPath: state + ".lock"))
    }
}
