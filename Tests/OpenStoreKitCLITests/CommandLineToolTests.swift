import Foundation
import OpenStoreKitCLI
import Synchronization
import TestSupport
import Testing

private func write(_ text: String, to url: URL) throws {
    try Data(text.utf8).write(to: url)
}

@Suite("The openstorekit command")
struct CommandLineToolTests {
    @Test("demo prints the event log, and its verdict on standard error, and passes")
    func demo() {
        let (code, out, err) = runInProcess(["demo"])
        #expect(code == 0)
        let lines = out.split(separator: "\n")
        #expect(lines.first?.hasPrefix("{\"seq\":1,") == true)
        #expect(lines.last?.hasPrefix("{\"seq\":40,") == true)
        #expect(err.hasPrefix("PASS demo"))
        #expect(runInProcess(["demo"]).out == out, "the same bytes every run")
    }

    @Test("run: PASS and FAIL per feed, the summary line last, exit 1 when an expectation fails")
    func runMixed() throws {
        let temporary = try TemporaryDirectory(prefix: "openstorekit-cli")
        defer { temporary.remove() }
        let directory = temporary.url
        let good = directory.appendingPathComponent("good.feed")
        let bad = directory.appendingPathComponent("bad.feed")
        try write("buy com.example.pro as p\nexpect state p purchased\n", to: good)
        try write("buy com.example.pro as p\nexpect state p failed\n", to: bad)
        let (code, out, err) = runInProcess(["run", good.path, bad.path])
        #expect(code == 1)
        #expect(out.isEmpty)
        let lines = err.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "PASS \(good.path) (2 steps, 1 expectations)",
                "FAIL \(bad.path): line 2: expect state p failed: expected state failed, observed purchased",
                "1 passed, 1 failed",
            ])
    }

    @Test("run: a malformed feed is reported with its place and exits 2")
    func runMalformed() throws {
        let temporary = try TemporaryDirectory(prefix: "openstorekit-cli")
        defer { temporary.remove() }
        let directory = temporary.url
        let feed = directory.appendingPathComponent("broken.feed")
        try write("buy com.example.pro\nexpect state\n", to: feed)
        let (code, _, err) = runInProcess(["run", feed.path])
        #expect(code == 2)
        #expect(
            err.contains(
                "ERROR \(feed.path): \(feed.path):2:13: error: missing a transaction handle or product identifier"))
        #expect(err.hasSuffix("0 passed, 1 failed\n"))
    }

    @Test("run: many feeds in parallel keep their order, with logs per feed and in one file, and JUnit XML")
    func parallelWithLogs() throws {
        let temporary = try TemporaryDirectory(prefix: "openstorekit-cli")
        defer { temporary.remove() }
        let directory = temporary.url
        var feeds: [String] = []
        for index in 0..<12 {
            let feed = directory.appendingPathComponent("feed\(index).feed")
            try write(
                "buy com.example.coins100 quantity \(index % 10 + 1) as t\nexpect state t \(index == 5 ? "failed" : "purchased")\n",
                to: feed)
            feeds.append(feed.path)
        }
        let logs = directory.appendingPathComponent("logs")
        let junit = directory.appendingPathComponent("report.xml")
        let (code, _, err) = runInProcess(
            ["run"] + feeds + ["--log-dir", logs.path, "--junit", junit.path, "--jobs", "4"])
        #expect(code == 1)
        let verdicts = err.split(separator: "\n").dropLast().map { $0.split(separator: " ")[1] }
        #expect(
            verdicts.map(String.init)
                == feeds.map { $0.hasSuffix(":") ? $0 : $0 + ($0.hasSuffix("feed5.feed") ? ":" : "") })
        #expect(err.hasSuffix("11 passed, 1 failed\n"))
        for index in 0..<12 {
            let log = try String(contentsOf: logs.appendingPathComponent("feed\(index).jsonl"), encoding: .utf8)
            #expect(log.contains("\"quantity\":\(index % 10 + 1)"))
        }
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains("<testsuite name=\"openstorekit\" tests=\"12\" failures=\"1\" errors=\"0\">"))
        #expect(
            xml.contains(
                "<failure message=\"line 2: expect state t failed: expected state failed, observed purchased\">"))

        let combined = directory.appendingPathComponent("all.jsonl")
        #expect(runInProcess(["run"] + feeds + ["--log", combined.path]).code == 1)
        let text = try String(contentsOf: combined, encoding: .utf8)
        let quantities = text.split(separator: "\n").filter { $0.contains("\"state\":\"purchasing\"") }
            .map { $0.components(separatedBy: "\"quantity\":")[1].prefix { $0.isNumber } }
        #expect(quantities.map { Int($0) } == (0..<12).map { $0 % 10 + 1 }, "logs in the order the feeds were given")
    }

    @Test("help for every command; unknown commands and options explain themselves and exit 2")
    func usage() {
        #expect(runInProcess(["--help"]).code == 0)
        #expect(runInProcess(["--help"]).out.contains("Usage: openstorekit COMMAND"))
        for command in ["demo", "run", "generate", "help"] {
            let (code, out, _) = runInProcess(["help", command])
            #expect(code == 0)
            #expect(out.hasPrefix("Usage: openstorekit \(command)"))
        }
        let unknown = runInProcess(["frobnicate"])
        #expect(unknown.code == 2)
        #expect(unknown.err.contains("unknown command \"frobnicate\""))
        let badOption = runInProcess(["run", "x.feed", "--colour"])
        #expect(badOption.code == 2)
        #expect(badOption.err.contains("unknown option --colour for `run`"))
        let missing = runInProcess(["run"])
        #expect(missing.code == 2)
        #expect(missing.err.contains("run needs at least one feed file"))
        let noValue = runInProcess(["run", "x.feed", "--junit"])
        #expect(noValue.err.contains("--junit needs a value"))
        #expect(runInProcess([]).code == 2)
        #expect(
            runInProcess(["generate", "--users", "0", "--seed", "1"]).err.contains(
                "--users takes a whole number from 1"))
        #expect(runInProcess(["generate", "--users", "2"]).err.contains("generate needs --seed S"))
    }

    @Test("generate writes a reproducible feed that runs")
    func generate() throws {
        let first = runInProcess(["generate", "--users", "5", "--seed", "42", "--steps", "300"])
        #expect(first.code == 0)
        #expect(first.out == runInProcess(["generate", "--users", "5", "--seed", "42", "--steps", "300"]).out)
        let temporary = try TemporaryDirectory(prefix: "openstorekit-cli")
        defer { temporary.remove() }
        let directory = temporary.url
        let feed = directory.appendingPathComponent("load.feed")
        #expect(
            runInProcess(["generate", "--users", "5", "--seed", "42", "--steps", "300", "--output", feed.path]).code
                == 0)
        #expect(try String(contentsOf: feed, encoding: .utf8) == first.out)
        let result = runInProcess(["run", feed.path])
        #expect(result.code == 0, "\(result.err)")
    }

    @Test("A progress line is shown on a terminal only")
    func progress() throws {
        let temporary = try TemporaryDirectory(prefix: "openstorekit-cli")
        defer { temporary.remove() }
        let directory = temporary.url
        let feeds = try (0..<3).map { index -> String in
            let url = directory.appendingPathComponent("p\(index).feed")
            try write("buy com.example.pro\n", to: url)
            return url.path
        }
        #expect(runInProcess(["run"] + feeds, terminal: true).err.contains("[3/3]"))
        #expect(!runInProcess(["run"] + feeds, terminal: false).err.contains("[3/3]"))
    }
}
