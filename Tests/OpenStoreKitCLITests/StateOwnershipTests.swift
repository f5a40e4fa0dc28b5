import Foundation
import OpenStoreKitCLI
import StoreSimulator
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process running the `openstorekit` executable built with the tests, its standard output read line by
/// line (each read bounded in time) and its standard error in a file.
private final class ToolProcess {
    let pid: pid_t
    let errorLog: String
    private let output: Int32
    private var buffer: [UInt8] = []
    /// The exit status, once the process was waited for (its pid may then belong to another process).
    private var status: Int32?

    init(_ arguments: [String], errorLog: String) throws {
        let executable = try Self.executable()
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_addclose(&actions, ends[0])
        posix_spawn_file_actions_addclose(&actions, ends[1])
        posix_spawn_file_actions_addopen(&actions, 2, errorLog, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        close(ends[1])
        guard rc == 0 else {
            close(ends[0])
            Issue.record("cannot start \(executable): error \(rc)")
            throw CancellationError()
        }
        self.pid = pid
        self.errorLog = errorLog
        self.output = ends[0]
    }

    deinit { close(output) }

    /// The `openstorekit` executable, next to the test bundle (the test target depends on it).
    private static func executable() throws -> String {
        var candidates: [String] = []
        if let test = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(
                URL(fileURLWithPath: test).deletingLastPathComponent().appendingPathComponent("openstorekit").path)
        }
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(
                URL(fileURLWithPath: bundle.bundlePath).deletingLastPathComponent().appendingPathComponent(
                    "openstorekit"
                ).path)
        }
        return try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0) }, "\(candidates)")
    }

    /// The next line of output, or `nil` at its end or when none comes within `seconds`.
    func readLine(within seconds: Int32 = 120) -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            var ready = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            let polled = poll(&ready, 1, seconds * 1000)
            if polled < 0, errno == EINTR { continue }
            guard polled > 0 else { return nil }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    /// Waits for the process to end (it ends by itself, or after `kill`): its exit status, or -signal.
    func waitForExit() -> Int32 {
        if let status { return status }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0, errno == EINTR {}
        let result = raw & 0x7F == 0 ? (raw >> 8) & 0xFF : -(raw & 0x7F)
        status = result
        return result
    }

    /// Kills the process with SIGKILL, unless it was already waited for, and waits for it.
    @discardableResult
    func kill9() -> Int32 {
        if status == nil { kill(pid, SIGKILL) }
        return waitForExit()
    }

    /// What the process wrote to its standard error.
    var errors: String { (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? "" }
}

/// Runs the command in this process with captured output.
private func runTool(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
    let out = Mutex("")
    let err = Mutex("")
    let tool = CommandLineTool(
        output: .init(
            out: { text in out.withLock { $0 += text } }, err: { text in err.withLock { $0 += text } },
            isTerminal: false))
    let code = tool.run(arguments)
    return (code, out.withLock { $0 }, err.withLock { $0 })
}

@Suite("One process owns a state file")
struct StateOwnershipTests {
    @Test("A second process on a state file in use is refused at once, naming the file and the owner's pid")
    func secondProcessIsRefused() throws {
        let directory = FileManager.default.temporaryDirectory.path + "/state-owner-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let state = directory + "/same.sqlite"
        // The first process opens the file and goes on working on it (far more steps than it has time for).
        let owner = try ToolProcess(
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
        let second = try ToolProcess(
            ["crash-workload", "--state", state, "--seed", "7", "--steps", "5"], errorLog: directory + "/2.log")
        while second.readLine() != nil {}
        #expect(second.waitForExit() == 2)
        #expect(second.errors.contains(state), "\(second.errors)")
        #expect(second.errors.contains("in use by process \(owner.pid)"), "\(second.errors)")
        #expect(second.errors.contains("another state file"), "\(second.errors)")

        // `run --state` in this process is refused the same way, before it runs a single step.
        let feed = directory + "/buy.feed"
        try Data("buy com.example.pro\nexpect history 1\n".utf8).write(to: URL(fileURLWithPath: feed))
        let run = runTool(["run", feed, "--state", state])
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
