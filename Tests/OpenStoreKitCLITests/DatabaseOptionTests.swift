import Foundation
import Ledger
import StoreSimulator
import TestSupport
import Testing

@Suite("The --database option")
struct DatabaseOptionTests {
    /// A feed whose purchase is left unfinished across a restart, as `StateOptionTests` runs it on `--state`.
    static let restarting = """
        observer remove app
        observer add crashy finish=manual
        buy com.example.pro as pro
        restart
        expect states pro purchasing purchased purchased
        """

    @Test("run --database PATH is run --state PATH: restart reopens the file, and a second run goes on from it")
    func runWithDatabasePath() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let feed = directory.file("crashy.feed")
        try Data(Self.restarting.utf8).write(to: URL(fileURLWithPath: feed))
        let state = directory.file("state.sqlite")
        let first = runInProcess(["run", feed, "--database", state])
        #expect(first.code == 0, "\(first.err)")
        #expect(FileManager.default.fileExists(atPath: state))
        let again = directory.file("again.feed")
        try Data("expect history 1\nexpect unfinished 0\n".utf8).write(to: URL(fileURLWithPath: again))
        // The file --database wrote is the one --state reads.
        let second = runInProcess(["run", again, "--state", state])
        #expect(second.code == 0, "\(second.err)")
    }

    @Test("--state and --database together are a usage error, for run and serve, and nothing is created")
    func exclusive() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let feed = directory.file("f.feed")
        try Data("buy com.example.pro\n".utf8).write(to: URL(fileURLWithPath: feed))
        let run = runInProcess(["run", feed, "--state", directory.file("a.sqlite"), "--database", directory.file("b")])
        #expect(run.code == 2)
        #expect(run.err.contains("--state and --database cannot be used together"), "\(run.err)")
        let serve = runInProcess(["serve", "--state", directory.file("a.sqlite"), "--database", directory.file("b")])
        #expect(serve.code == 2)
        #expect(serve.err.contains("--state and --database cannot be used together"), "\(serve.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["f.feed"])
    }

    @Test("A server URL with several feeds, or given to --state, is a usage error that never shows the password")
    func serverURLMisuse() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let feed = directory.file("f.feed")
        try Data("buy com.example.pro\n".utf8).write(to: URL(fileURLWithPath: feed))
        let url = "postgresql://user:hunter2@127.0.0.1:1/store"
        let state = runInProcess(["run", feed, "--state", url])
        #expect(state.code == 2)
        #expect(state.err.contains("to --database"), "\(state.err)")
        for result in [state] + [runInProcess(["serve", "--state", url])] {
            #expect(!result.err.contains("hunter2"))
        }
        #if Postgres
            let several = runInProcess(["run", feed, feed, "--database", url])
            #expect(several.code == 2)
            #expect(several.err.contains("keeps the store of one feed"), "\(several.err)")
            #expect(!several.err.contains("hunter2"))
        #endif
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["f.feed"])
    }

    #if !Postgres
        @Test("Without the trait Postgres a postgresql:// URL is a usage error naming the trait; nothing is created")
        func serverURLNeedsTheTrait() throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let feed = directory.file("f.feed")
            try Data("buy com.example.pro\n".utf8).write(to: URL(fileURLWithPath: feed))
            for url in ["postgresql://user:hunter2@127.0.0.1:1/store", "postgres:///store?password=hunter2"] {
                for arguments in [["run", feed, "--database", url], ["serve", "--database", url]] {
                    let result = runInProcess(arguments)
                    #expect(result.code == 2, "\(arguments)")
                    #expect(result.err.contains("the package trait Postgres"), "\(result.err)")
                    #expect(result.err.contains("swift build --traits Postgres"), "\(result.err)")
                    #expect(!result.err.contains("hunter2"))
                    #expect(result.out.isEmpty)
                }
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["f.feed"])
        }
    #endif

    #if Postgres
        @Test(
            "run --database URL keeps the store on the server: restart reopens it, a second run goes on, a second store is refused",
            .requiresPostgres)
        func runOnAServerDatabase() throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let schema = try LedgerDatabase.makeScratchSchema(serverURL: TestPostgres.url ?? "")
            defer { schema.drop() }
            let feed = directory.file("crashy.feed")
            try Data(Self.restarting.utf8).write(to: URL(fileURLWithPath: feed))
            let first = runInProcess(["run", feed, "--database", schema.url])
            #expect(first.code == 0, "\(first.err)")
            let again = directory.file("again.feed")
            try Data("expect history 1\nexpect unfinished 0\n".utf8).write(to: URL(fileURLWithPath: again))
            let second = runInProcess(["run", again, "--database", schema.url, "--commit", "change"])
            #expect(second.code == 0, "\(second.err)")
            let store = try SimulatedStore(database: schema.url, lane: .manual)
            let busy = runInProcess(["run", again, "--database", schema.url])
            #expect(busy.code == 2)
            #expect(busy.err.contains("is already open in another store of this process"), "\(busy.err)")
            #expect(store.allTransactions().count == 1)
            try store.close()
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [
                    "again.feed", "crashy.feed",
                ])
        }
    #endif

    @Test("help run and help serve explain --database")
    func help() {
        for command in ["run", "serve"] {
            let help = runInProcess(["help", command]).out
            #expect(help.contains("--state PATH | --database PATH|URL"), "\(command)")
            #expect(help.contains("postgresql://"), "\(command)")
        }
    }
}
