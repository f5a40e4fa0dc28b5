import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Child processes of the tests: every read is bounded")
struct ChildProcessTests {
    @Test("A child that writes nothing (reading a FIFO no one writes) is killed when a line read runs out of time")
    func silentChildIsKilled() throws {
        let temporary = try TemporaryDirectory(prefix: "child-process")
        defer { temporary.remove() }
        let fifo = temporary.file("never.feed")
        try #require(mkfifo(fifo, 0o600) == 0)
        let child = try ChildProcess(["run", fifo], errorLog: temporary.file("stderr.log"))
        let started = ContinuousClock.now
        #expect(child.readLine(within: 1) == nil)
        #expect(ContinuousClock.now - started < .seconds(60))
        #expect(child.timedOut)
        #expect(child.waitForExit() == -SIGKILL)
    }

    @Test("A kill from another thread ends a read in progress")
    func killEndsRead() async throws {
        let temporary = try TemporaryDirectory(prefix: "child-process")
        defer { temporary.remove() }
        let fifo = temporary.file("never.feed")
        try #require(mkfifo(fifo, 0o600) == 0)
        let child = try ChildProcess(["run", fifo], errorLog: temporary.file("stderr.log"))
        let killer = Thread { child.kill9() }
        killer.start()
        let line = try await bounded("a read of a killed child") { child.readLine() }
        #expect(line == nil)
        #expect(!child.timedOut)
        #expect(child.waitForExit() == -SIGKILL)
    }
}
