import Foundation
import OpenStoreKitCLI
import Synchronization
import Testing

@Suite("The --state option")
struct StateOptionTests {
    private let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("openstorekit-state-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    @Test("run --state keeps the store in a file: restart reopens it, and a second run goes on from it")
    func runWithState() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let feed = directory.appendingPathComponent("crashy.feed")
        try Data(
            """
            observer remove app
            observer add crashy finish=manual
            buy com.example.pro as pro
            restart
            expect states pro purchasing purchased purchased
            """.utf8
        ).write(to: feed)
        let state = directory.appendingPathComponent("state.sqlite").path
        let first = runInProcess(["run", feed.path, "--state", state])
        #expect(first.code == 0, "\(first.err)")
        #expect(FileManager.default.fileExists(atPath: state))
        let again = directory.appendingPathComponent("again.feed")
        try Data("expect history 1\nexpect unfinished 0\n".utf8).write(to: again)
        let second = runInProcess(["run", again.path, "--state", state])
        #expect(second.code == 0, "\(second.err)")
    }

    @Test("Several feeds keep one state file each in the --state directory")
    func severalFeeds() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        var feeds: [String] = []
        for name in ["a", "b"] {
            let feed = directory.appendingPathComponent("\(name).feed")
            try Data("buy com.example.pro\nrestart\nexpect history 1\n".utf8).write(to: feed)
            feeds.append(feed.path)
        }
        let states = directory.appendingPathComponent("states").path
        let result = runInProcess(["run"] + feeds + ["--state", states])
        #expect(result.code == 0, "\(result.err)")
        let files = try FileManager.default.contentsOfDirectory(atPath: states).filter { $0.hasSuffix(".sqlite") }
        #expect(files.sorted() == ["a.sqlite", "b.sqlite"])
    }

    @Test("A state file that is not one is reported, exit 2, and left as it was")
    func badStateFile() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let feed = directory.appendingPathComponent("f.feed")
        try Data("buy com.example.pro\n".utf8).write(to: feed)
        let notes = directory.appendingPathComponent("notes.txt")
        try Data("my notes\n".utf8).write(to: notes)
        let result = runInProcess(["run", feed.path, "--state", notes.path])
        #expect(result.code == 2)
        #expect(result.err.contains("ERROR \(feed.path)"))
        #expect(result.err.contains(notes.path))
        #expect(try Data(contentsOf: notes) == Data("my notes\n".utf8))
    }

    @Test(
        "--state through a symbolic link uses the file it leads to; a link to nothing is reported, exit 2, and creates nothing"
    )
    func stateThroughLink() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let feed = directory.appendingPathComponent("f.feed")
        try Data("buy com.example.pro\n".utf8).write(to: feed)
        let real = directory.appendingPathComponent("real.sqlite")
        let link = directory.appendingPathComponent("link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: real.path)
        let dangling = runInProcess(["run", feed.path, "--state", link.path])
        #expect(dangling.code == 2)
        #expect(dangling.err.contains("symbolic link"), "\(dangling.err)")
        #expect(!FileManager.default.fileExists(atPath: real.path))
        #expect(FileManager.default.createFile(atPath: real.path, contents: Data()))
        let first = runInProcess(["run", feed.path, "--state", link.path])
        #expect(first.code == 0, "\(first.err)")
        #expect(try Data(contentsOf: real).count > 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names == ["f.feed", "link.sqlite", "real.sqlite"], "\(names)")
    }

    @Test("demo --state runs the demo on a state file; help explains --state")
    func demoAndHelp() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("demo.sqlite").path
        let demo = runInProcess(["demo", "--state", state])
        #expect(demo.code == 0)
        #expect(demo.out == runInProcess(["demo"]).out, "the same log as in memory")
        let help = runInProcess(["help", "run"]).out
        #expect(help.contains("--state PATH"))
        #expect(help.contains("restart"))
        #expect(runInProcess(["help", "demo"]).out.contains("--state FILE"))
    }
}
