import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The kind of file at `path`, not following a symbolic link.
private func kind(_ path: String) -> mode_t? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return info.st_mode & S_IFMT
}

private let feedText = "buy com.example.pro as p\nexpect state p purchased\n"

/// Each output option, as the arguments that write it to `path` (a feed `a.feed` exists in the directory).
private let outputOptions: [(name: String, arguments: @Sendable (String) -> [String])] = [
    ("demo --log", { ["demo", "--log", $0] }),
    ("demo --receipt-out", { ["demo", "--receipt-out", $0] }),
    ("generate --output", { ["generate", "--users", "1", "--seed", "7", "--steps", "20", "--output", $0] }),
    ("run --log", { ["run", "a.feed", "--log", $0] }),
    ("run --junit", { ["run", "a.feed", "--junit", $0] }),
]

@Suite("Output files: written through, replaced atomically, or refused; never destroyed")
struct OutputFileTests {
    let temporary: TemporaryDirectory
    var directory: URL { temporary.url }

    init() throws {
        temporary = try TemporaryDirectory(prefix: "openstorekit-output")
        try Data(feedText.utf8).write(to: directory.appendingPathComponent("a.feed"))
    }

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    @Test("A symbolic link to a character device stays a link; the output goes through it", arguments: [0, 1, 2, 3, 4])
    func linkToDevice(option: Int) throws {
        defer { temporary.remove() }
        let link = path("null")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/null")
        let run = try openstorekit(outputOptions[option].arguments(link), in: directory)
        #expect(run.code == 0, "\(outputOptions[option].name): \(run.stderr)")
        #expect(kind(link) == S_IFLNK, "\(outputOptions[option].name) replaced the link")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "/dev/null")
    }

    @Test("--log-dir writes through a link it finds in the directory")
    func logDirectoryLink() throws {
        defer { temporary.remove() }
        let logs = path("logs")
        try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: logs + "/a.jsonl", withDestinationPath: "/dev/null")
        let run = try openstorekit(["run", "a.feed", "--log-dir", logs], in: directory)
        #expect(run.code == 0, "\(run.stderr)")
        #expect(kind(logs + "/a.jsonl") == S_IFLNK)
    }

    @Test("A FIFO is written through and stays a FIFO", arguments: [1, 2, 3])
    func fifo(option: Int) throws {
        defer { temporary.remove() }
        let fifo = path("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        // Open both ends here, so the command's open does not wait for a reader, and read what it wrote afterwards.
        let descriptor = open(fifo, O_RDWR | O_NONBLOCK)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let run = try openstorekit(outputOptions[option].arguments(fifo), in: directory)
        #expect(run.code == 0, "\(outputOptions[option].name): \(run.stderr)")
        #expect(kind(fifo) == S_IFIFO, "\(outputOptions[option].name) replaced the FIFO")
        var bytes = [UInt8](repeating: 0, count: 1 << 16)
        let count = read(descriptor, &bytes, bytes.count)
        #expect(count > 0, "nothing came through the FIFO")
        if option == 1 { #expect(bytes.first == 0x30, "a DER receipt starts with a SEQUENCE") }
    }

    @Test("A symbolic link to a regular file replaces the file, keeps its mode, and stays a link")
    func linkToRegularFile() throws {
        defer { temporary.remove() }
        let target = path("real.jsonl")
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: target))
        #expect(chmod(target, 0o640) == 0)
        let link = path("link.jsonl")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.jsonl")
        let run = try openstorekit(["demo", "--log", link], in: directory)
        #expect(run.code == 0, "\(run.stderr)")
        #expect(kind(link) == S_IFLNK)
        let text = try String(contentsOfFile: target, encoding: .utf8)
        #expect(text.hasPrefix("{\"seq\":1,"))
        #expect(!text.contains("old"))
        var info = stat()
        #expect(stat(target, &info) == 0 && info.st_mode & 0o777 == 0o640)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names == ["a.feed", "link.jsonl", "real.jsonl"], "no temporary file left behind")
    }

    @Test("/proc/self/fd/1 writes to the command's own standard output")
    func descriptorPath() throws {
        defer { temporary.remove() }
        let run = try openstorekit(["demo", "--log", path("log.jsonl"), "--receipt-out", "/proc/self/fd/1"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.out.first == 0x30)
        #expect(run.out.count > 1000)
    }

    @Test("An output that is one of the inputs is refused, naming both, and the input is left as it was")
    func outputIsInput() throws {
        defer { temporary.remove() }
        let feed = path("a.feed")
        try FileManager.default.createSymbolicLink(atPath: path("alias.jsonl"), withDestinationPath: "a.feed")
        for (arguments, option) in [
            (["run", "a.feed", "--log", "a.feed"], "--log"),
            (["run", "a.feed", "--junit", path("alias.jsonl")], "--junit"),
            (["run", "a.feed", "--log", "./a.feed"], "--log"),
        ] {
            let run = try openstorekit(arguments, in: directory)
            #expect(run.code == 2, "\(arguments)")
            #expect(run.stderr.contains(option) && run.stderr.contains("the feed a.feed"), "\(run.stderr)")
            #expect(try String(contentsOfFile: feed, encoding: .utf8) == feedText)
        }
        let copy = path("b.jsonl")
        try Data(feedText.utf8).write(to: URL(fileURLWithPath: copy))
        let logDirectory = try openstorekit(["run", "b.jsonl", "--log-dir", "."], in: directory)
        #expect(logDirectory.code == 2)
        #expect(logDirectory.stderr.contains("--log-dir") && logDirectory.stderr.contains("the feed b.jsonl"))
        #expect(try String(contentsOfFile: copy, encoding: .utf8) == feedText)
    }

    @Test("An output that is a configuration file a feed names is refused")
    func outputIsConfiguration() throws {
        defer { temporary.remove() }
        let catalog = path("shop.storekit")
        try Data("{}\n".utf8).write(to: URL(fileURLWithPath: catalog))
        try Data("config shop.storekit  # the app's catalog\nbuy com.example.pro\n".utf8).write(
            to: URL(fileURLWithPath: path("c.feed")))
        let run = try openstorekit(["run", "c.feed", "--log", "shop.storekit"], in: directory)
        #expect(run.code == 2)
        #expect(
            run.stderr.contains("--log shop.storekit is the configuration file \(catalog) of c.feed"), "\(run.stderr)")
        #expect(try String(contentsOfFile: catalog, encoding: .utf8) == "{}\n")
    }

    @Test("demo --receipt-out to standard output needs --log elsewhere")
    func receiptToStandardOutputWithLog() throws {
        defer { temporary.remove() }
        let run = try openstorekit(["demo", "--receipt-out", "/proc/self/fd/1"])
        #expect(run.code == 2)
        #expect(run.stderr.contains("give --log FILE as well"))
        #expect(run.out.isEmpty)
    }

    @Test("An output that is the state file is refused before anything runs")
    func outputIsStateFile() throws {
        defer { temporary.remove() }
        let state = path("s.sqlite")
        #expect(try openstorekit(["demo", "--state", state, "--log", path("log.jsonl")]).code == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: state))
        let demo = try openstorekit(["demo", "--state", state, "--receipt-out", state])
        #expect(demo.code == 2)
        #expect(demo.stderr.contains("--receipt-out \(state) is the state file \(state)"), "\(demo.stderr)")
        let run = try openstorekit(["run", "a.feed", "--state", state, "--log", state], in: directory)
        #expect(run.code == 2)
        #expect(run.stderr.contains("the state file"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == before)
    }

    @Test("Two outputs naming one file are refused")
    func sameOutputTwice() throws {
        defer { temporary.remove() }
        let run = try openstorekit(["run", "a.feed", "--log", "out", "--junit", "./out"], in: directory)
        #expect(run.code == 2)
        #expect(run.stderr.contains("--log out and --junit ./out name the same file"), "\(run.stderr)")
        #expect(kind(path("out")) == nil)
    }

    @Test("A missing directory, a file as directory, a directory, a dangling link: clear errors, exit 2")
    func unwritable() throws {
        defer { temporary.remove() }
        try FileManager.default.createDirectory(atPath: path("sub"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: path("dangling"), withDestinationPath: "nowhere/x")
        for (target, reason) in [
            (path("missing/log.jsonl"), "its directory \(path("missing")) does not exist"),
            (path("a.feed/log.jsonl"), "\(path("a.feed")) is not a directory"),
            (path("sub"), "it is a directory"),
            (path("dangling"), "it is a symbolic link to a file that does not exist"),
        ] {
            let run = try openstorekit(["demo", "--log", target])
            #expect(run.code == 2, "\(target)")
            #expect(run.stderr.contains("cannot write the event log (--log) to \(target): \(reason)"), "\(run.stderr)")
            #expect(run.out.isEmpty)
        }
        #expect(kind(path("dangling")) == S_IFLNK)
    }

    @Test(
        "Standard output that cannot be written (a full device) is reported on standard error, exit 2",
        arguments: [
            ["generate", "--users", "1", "--seed", "1"], ["demo"], ["run", "a.feed", "--log", "-"], ["help"],
            ["version"],
        ])
    func fullStandardOutput(arguments: [String]) throws {
        defer { temporary.remove() }
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        defer { try? full.close() }
        let run = try openstorekit(arguments, in: directory, standardOutput: full)
        #expect(run.code == 2, "\(arguments): \(run.stderr)")
        #expect(
            run.stderr.contains("openstorekit: cannot write to standard output: no space left on device"),
            "\(run.stderr)")
    }

    @Test(
        "The files SQLite and the store keep beside a state file are refused as outputs",
        arguments: ["-wal", "-shm", ".lock"])
    func stateCompanions(suffix: String) throws {
        defer { temporary.remove() }
        let state = "st.sqlite"
        let companion = path(state + suffix)
        try Data("kept".utf8).write(to: URL(fileURLWithPath: companion))
        let run = try openstorekit(["run", "a.feed", "--state", state, "--log", state + suffix], in: directory)
        #expect(run.code == 2)
        #expect(
            run.stderr.contains("--log \(state)\(suffix) is the \(suffix) file beside the state file \(state)"),
            "\(run.stderr)")
        #expect(try String(contentsOfFile: companion, encoding: .utf8) == "kept")
        let demo = try openstorekit(["demo", "--state", state, "--log", state + suffix], in: directory)
        #expect(demo.code == 2)
        #expect(try String(contentsOfFile: companion, encoding: .utf8) == "kept")
    }

    @Test("A usage error found among the outputs creates no --log-dir and no --state directory")
    func usageErrorCreatesNothing() throws {
        defer { temporary.remove() }
        try Data(feedText.utf8).write(to: directory.appendingPathComponent("b.feed"))
        let run = try openstorekit(
            ["run", "a.feed", "b.feed", "--log-dir", "logs/deep", "--state", "states", "--junit", "a.feed"],
            in: directory)
        #expect(run.code == 2)
        #expect(run.stderr.contains("--junit a.feed is the feed a.feed"), "\(run.stderr)")
        #expect(kind(path("logs")) == nil)
        #expect(kind(path("states")) == nil)
        let good = try openstorekit(
            ["run", "a.feed", "b.feed", "--log-dir", "logs/deep", "--state", "states"], in: directory)
        #expect(good.code == 0, "\(good.stderr)")
        #expect(kind(path("logs/deep/a.jsonl")) == S_IFREG)
        #expect(kind(path("states/b.sqlite")) == S_IFREG)
    }

    @Test("An existing file the user may not write is refused and kept, as a shell redirection would refuse it")
    func readOnlyTarget() throws {
        defer { temporary.remove() }
        let target = path("ro.log")
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        #expect(chmod(target, 0o444) == 0)
        // Root may write any file: the check is then run as an unprivileged user who owns the file and directory.
        let user: uid_t? = getuid() == 0 ? 65534 : nil
        if let user {
            #expect(chown(directory.path, user, user) == 0)
            #expect(chown(target, user, user) == 0)
        }
        let refused = try openstorekit(["demo", "--log", target], user: user)
        #expect(refused.code == 2)
        #expect(
            refused.stderr.contains(
                "cannot write the event log (--log) to \(target): it is not writable (permission denied)"),
            "\(refused.stderr)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "old")
        var info = stat()
        #expect(stat(target, &info) == 0 && info.st_mode & 0o777 == 0o444)
        #expect(chmod(target, 0o644) == 0)
        let written = try openstorekit(["demo", "--log", target], user: user)
        #expect(written.code == 0, "\(written.stderr)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) != "old")
    }
}
