import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs `openstorekit` with `arguments`, its output discarded, and returns its exit status and the most memory it
/// held at once (its peak resident set, in KiB).
private func peakMemory(_ arguments: [String]) throws -> (status: Int32, kilobytes: Int) {
    let executable = try openstorekitPath()
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, executable, &actions, nil, argv, environ)
    guard rc == 0 else { throw ExecutableError(description: "cannot start \(executable): error \(rc)") }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 {
        guard errno == EINTR else { throw ExecutableError(description: "wait4 failed: \(errno)") }
    }
    let exited = status & 0x7F == 0
    return (exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F), Int(usage.ru_maxrss))
}

@Suite("Inputs are read through bounded buffers")
struct InputMemoryTests {
    @Test("run: a feed of 48 MiB is read line by line: memory does not grow with it")
    func largeFeed() throws {
        let temporary = try TemporaryDirectory(prefix: "feed-memory")
        defer { temporary.remove() }
        let small = temporary.url.appendingPathComponent("small.feed")
        try Data("buy com.example.pro as pro\nexpect removed pro\n".utf8).write(to: small)
        // The same two steps after 48 MiB of comment lines.
        let large = temporary.url.appendingPathComponent("large.feed")
        let size = 48 << 20
        let comment = Data(("# " + String(repeating: "x", count: 1021) + "\n").utf8)
        #expect(comment.count == 1024)
        try Data().write(to: large)
        let handle = try FileHandle(forWritingTo: large)
        var block = Data()
        for _ in 0..<1024 { block.append(comment) }
        for _ in 0..<(size / block.count) { try handle.write(contentsOf: block) }
        try handle.write(contentsOf: Data("buy com.example.pro as pro\nexpect removed pro\n".utf8))
        try handle.close()

        let baseline = try peakMemory(["run", small.path])
        let measured = try peakMemory(["run", large.path])
        #expect(baseline.status == 0)
        #expect(measured.status == 0)
        // Holding the text whole would take at least 48 MiB more; reading it line by line takes a 64 KiB buffer. (A
        // child started with posix_spawn reports at least this test process's own peak, which other tests running
        // meanwhile may raise a little: hence the margin.)
        #expect(
            measured.kilobytes - baseline.kilobytes < 32 << 10,
            "peak \(measured.kilobytes) KiB for the 48 MiB feed, \(baseline.kilobytes) KiB for the small one")
    }

    @Test("receipt verify and jws verify refuse a file larger than their bound before reading it")
    func largeFiles() throws {
        let temporary = try TemporaryDirectory(prefix: "input-memory")
        defer { temporary.remove() }
        // Sparse files: their size is what counts; reading them would take the memory.
        let receipt = temporary.url.appendingPathComponent("receipt.b64")
        try Data("MIIB".utf8).write(to: receipt)
        let handle = try FileHandle(forWritingTo: receipt)
        try handle.truncate(atOffset: 400 << 20)
        try handle.close()
        let run = try openstorekit(["receipt", "verify", receipt.path, "--test-root"])
        #expect(run.code == 1)
        #expect(run.stdout.contains(#""name": "fileUnreadable""#), "\(run.stdout)")
        #expect(run.stdout.contains("(16 MiB) a receipt file may hold in \(receipt.path)"), "\(run.stdout)")
        // Against a small file's run: a child started with posix_spawn (vfork) reports at least this test process's
        // own peak, so only the difference says what the child itself took. Reading the file would take 400 MiB.
        let small = temporary.url.appendingPathComponent("small.b64")
        try Data("MIIB".utf8).write(to: small)
        let baseline = try peakMemory(["receipt", "dump", small.path])
        let measured = try peakMemory(["receipt", "dump", receipt.path])
        #expect(measured.status == 1)
        #expect(
            measured.kilobytes - baseline.kilobytes < 128 << 10,
            "peak \(measured.kilobytes) KiB for the 400 MiB file, \(baseline.kilobytes) KiB for a small one")

        let jws = temporary.url.appendingPathComponent("large.jws")
        try Data("eyJ".utf8).write(to: jws)
        let jwsHandle = try FileHandle(forWritingTo: jws)
        try jwsHandle.truncate(atOffset: 400 << 20)
        try jwsHandle.close()
        let jwsRun = try openstorekit(["jws", "verify", jws.path, "--test-root"])
        #expect(jwsRun.code == 1)
        #expect(jwsRun.stdout.contains("(1 MiB) a JWS file may hold in \(jws.path)"), "\(jwsRun.stdout)")
    }
}
