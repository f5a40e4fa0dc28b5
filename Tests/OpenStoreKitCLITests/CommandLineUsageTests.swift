import Foundation
import StoreModels
import TestSupport
import Testing

/// Every command and receipt action, as typed.
private let commands: [[String]] = [
    ["demo"], ["run"], ["generate"], ["receipt"], ["receipt", "verify"], ["receipt", "dump"], ["help"], ["version"],
    ["crash-workload"],
]

/// The first paragraph of a help text: its usage lines.
private func usageLines(_ help: String) -> String {
    String(help.components(separatedBy: "\n\n")[0])
}

@Suite("The command line as people use it")
struct CommandLineUsageTests {
    @Test("COMMAND --help and -h print the command's usage to standard output and exit 0", arguments: commands)
    func helpFlag(command: [String]) throws {
        for flag in ["--help", "-h"] {
            let run = try openstorekit(command + [flag])
            #expect(run.code == 0, "\(command) \(flag): \(run.stderr)")
            #expect(run.stdout.hasPrefix("Usage: openstorekit \(command.joined(separator: " "))"), "\(run.stdout)")
            #expect(run.stderr.isEmpty)
        }
        #expect(try openstorekit(["help"] + command).stdout == openstorekit(command + ["--help"]).stdout)
    }

    @Test("--help wins over the options around it")
    func helpAmongOptions() throws {
        let run = try openstorekit(["run", "missing.feed", "--jobs", "2", "--help"])
        #expect(run.code == 0)
        #expect(run.stdout.hasPrefix("Usage: openstorekit run"))
    }

    @Test("openstorekit --version and openstorekit version print the release")
    func version() throws {
        for arguments in [["--version"], ["version"]] {
            let run = try openstorekit(arguments)
            #expect(run.code == 0)
            #expect(run.stdout == "openstorekit \(OpenStoreKitRelease.version)\n")
        }
    }

    @Test(
        "Each usage line lists every option the command accepts",
        arguments: [
            ["demo"], ["run", "x.feed"], ["generate"], ["receipt", "verify", "x"], ["receipt", "dump", "x"],
            ["crash-workload"],
        ])
    func usageListsEveryOption(command: [String]) throws {
        let refused = try openstorekit(command + ["--no-such-option"])
        #expect(refused.code == 2)
        let accepted = try #require(
            refused.stderr.components(separatedBy: "its options are ").last?.split(separator: "\n").first)
        let options = accepted.components(separatedBy: ", ")
        #expect(options.count >= 1 && options.allSatisfy { $0.hasPrefix("--") }, "\(refused.stderr)")
        let name = command.prefix { !$0.hasSuffix(".feed") && $0 != "x" }
        let usage = usageLines(try openstorekit(Array(name) + ["--help"]).stdout)
        for option in options {
            #expect(usage.contains(option), "the usage of \(name) lacks \(option): \(usage)")
        }
    }

    @Test(
        "An option given twice is an error naming it, exit 2",
        arguments: [
            (["demo", "--log", "a", "--log", "b"], "--log"),
            (["run", "x.feed", "--jobs", "1", "--jobs=2"], "--jobs"),
            (["generate", "--users", "1", "--seed", "1", "--seed", "2"], "--seed"),
            (["receipt", "dump", "x", "--compact", "--compact"], "--compact"),
            (["receipt", "verify", "x", "--test-root", "--at", "now", "--at", "creation"], "--at"),
        ])
    func twice(arguments: [String], option: String) throws {
        let temporary = try TemporaryDirectory(prefix: "openstorekit-usage")
        defer { temporary.remove() }
        let directory = temporary.url
        let run = try openstorekit(arguments, in: directory)
        #expect(run.code == 2)
        #expect(run.stderr.contains("\(option) is given twice"), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    @Test("demo: the event log alone on standard output, one JSON object per line; the verdict on standard error")
    func demoOutput() throws {
        let run = try openstorekit(["demo"])
        #expect(run.code == 0)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count > 10)
        for line in lines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any], "not JSON: \(line)")
        }
        #expect(run.stderr == "PASS demo (20 steps, 10 expectations)\n")
    }

    @Test("run: verdicts and the summary on standard error; --log - puts only the event log on standard output")
    func runOutput() throws {
        let temporary = try TemporaryDirectory(prefix: "openstorekit-usage")
        defer { temporary.remove() }
        let directory = temporary.url
        try Data("buy com.example.pro as p\nexpect state p purchased\n".utf8).write(
            to: directory.appendingPathComponent("a.feed"))
        let quiet = try openstorekit(["run", "a.feed"], in: directory)
        #expect(quiet.code == 0)
        #expect(quiet.stdout.isEmpty)
        #expect(quiet.stderr == "PASS a.feed (2 steps, 1 expectations)\n1 passed, 0 failed\n")
        let piped = try openstorekit(["run", "a.feed", "--log", "-"], in: directory)
        #expect(piped.code == 0)
        #expect(piped.stderr == quiet.stderr)
        let lines = piped.stdout.split(separator: "\n")
        #expect(lines.count > 2)
        for line in lines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any], "not JSON: \(line)")
        }
    }

    @Test("Usage errors exit 2 with what to do on standard error, and nothing on standard output")
    func usageErrors() throws {
        let temporary = try TemporaryDirectory(prefix: "openstorekit-usage")
        defer { temporary.remove() }
        let directory = temporary.url
        for (arguments, message) in [
            ([String](), "give a command"),
            (["demo", "extra"], "demo takes no operands"),
            (["run"], "run needs at least one feed file, such as `openstorekit run"),
            (["receipt"], "receipt needs an action"),
            (["generate", "--users", "1", "--seed", "1", "--output", "-", "extra"], "generate takes no operands"),
            (["demo", "--receipt-out", "-"], "give --receipt-out a file"),
        ] {
            let run = try openstorekit(arguments, in: directory)
            #expect(run.code == 2, "\(arguments)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
            #expect(run.stdout.isEmpty, "\(arguments)")
        }
    }

    @Test("help demo tells what a second run on a state file does, and it does that")
    func demoOnStateFileTwice() throws {
        let temporary = try TemporaryDirectory(prefix: "openstorekit-usage")
        defer { temporary.remove() }
        let directory = temporary.url
        let help = try openstorekit(["help", "demo"]).stdout
        #expect(help.contains("goes on with the store it holds"))
        #expect(help.contains("the eighth run on one"))
        let state = directory.appendingPathComponent("demo.sqlite").path
        let fresh = try openstorekit(["demo"])
        var logs: [String] = []
        for run in 1...7 {
            let demo = try openstorekit(["demo", "--state", state])
            #expect(demo.code == 0, "run \(run) on the file: \(demo.stderr)")
            logs.append(demo.stdout)
        }
        #expect(logs[0] == fresh.stdout, "a new file gives the log of a fresh store")
        #expect(logs[1] != logs[0], "a second run goes on from the first")
        #expect(logs[1].hasPrefix("{\"seq\":1,\"time\":\"2026-01-02T00:00:00Z\""), "the clock a day further")
        let eighth = try openstorekit(["demo", "--state", state])
        #expect(eighth.code == 1)
        #expect(eighth.stderr.contains("FAIL demo: line 24: expect subscribed"), "\(eighth.stderr)")
    }
}
