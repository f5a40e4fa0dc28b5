import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `openstorekit` executable running as a child process: its standard output in a pipe read line by line, each
/// read bounded in time (a child that writes nothing within the bound is killed), its standard error appended to a
/// file. It may be killed from another thread while one reads from it.
final class ChildProcess: Sendable {
    /// The child's process id (valid until it was waited for).
    let pid: pid_t
    /// The file the child's standard error goes to.
    let errorLog: String
    private let output: Int32
    private let buffer = Mutex<[UInt8]>([])
    /// The exit status once the child was reaped (its pid may then belong to another process), and whether a read
    /// ran out of time.
    private let state = Mutex<(status: Int32?, timedOut: Bool)>((nil, false))

    /// Starts `openstorekit` with `arguments`; with `mergingErrors`, its standard error goes to the same pipe as its
    /// standard output (read line by line with it) instead of `errorLog`.
    init(_ arguments: [String], errorLog: String, mergingErrors: Bool = false) throws {
        let executable = try openstorekitPath()
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw ExecutableError(description: "pipe failed: \(errno)") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        if mergingErrors { posix_spawn_file_actions_adddup2(&actions, ends[1], 2) }
        posix_spawn_file_actions_addclose(&actions, ends[0])
        posix_spawn_file_actions_addclose(&actions, ends[1])
        if !mergingErrors {
            posix_spawn_file_actions_addopen(&actions, 2, errorLog, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        close(ends[1])
        guard rc == 0 else {
            close(ends[0])
            throw ExecutableError(description: "cannot start \(executable): error \(rc)")
        }
        self.pid = pid
        self.errorLog = errorLog
        self.output = ends[0]
    }

    deinit {
        kill9()
        close(output)
    }

    /// The next line of output, or `nil` at its end, or when none comes within `seconds`: the child is then killed
    /// (``timedOut`` tells).
    func readLine(within seconds: Double = 120) -> String? {
        let deadline = ContinuousClock.now + .seconds(seconds)
        return buffer.withLock { buffer -> String? in
            while true {
                if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[..<newline], as: UTF8.self)
                    buffer.removeSubrange(...newline)
                    return line
                }
                let left = ContinuousClock.now.duration(to: deadline)
                guard left > .zero else {
                    state.withLock { $0.timedOut = true }
                    kill9()
                    return nil
                }
                let milliseconds = Int32(clamping: left.components.seconds * 1000 + 1)
                var ready = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
                let polled = poll(&ready, 1, milliseconds)
                if polled < 0, errno == EINTR { continue }
                guard polled >= 0 else { return nil }
                if polled == 0 { continue }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return nil }
                buffer.append(contentsOf: chunk[..<count])
            }
        }
    }

    /// Whether a read ran out of time (and killed the child).
    var timedOut: Bool { state.withLock { $0.timedOut } }

    /// Waits for the child to end (by itself, or after ``kill9()``): its exit status, or -signal.
    @discardableResult
    func waitForExit() -> Int32 {
        // Wait without reaping, so that a kill from another thread never reaches a reused pid.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0, errno == EINTR {}
        return state.withLock { state -> Int32 in
            if let status = state.status { return status }
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0, errno == EINTR {}
            let status = raw & 0x7F == 0 ? (raw >> 8) & 0xFF : -(raw & 0x7F)
            state.status = status
            return status
        }
    }

    /// Kills the child with SIGKILL, unless it was already reaped, and waits for it: its exit status, or -signal.
    @discardableResult
    func kill9() -> Int32 {
        state.withLock { state in
            if state.status == nil { _ = kill(pid, SIGKILL) }
        }
        return waitForExit()
    }

    /// What the child wrote to its standard error.
    var errors: String { (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? "" }
}
