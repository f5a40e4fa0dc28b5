import FeedRunner
import Foundation
import Testing

/// A fresh directory for state files, removed by ``remove()``.
private struct StateDirectory {
    let path = FileManager.default.temporaryDirectory.path + "/feed-state-" + UUID().uuidString

    init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false) }

    func file(_ name: String) -> String { path + "/" + name }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

@Suite("Feeds on a state file")
struct StateFileFeedTests {
    /// A feed that restarts at awkward moments: transactions unfinished, a purchase waiting for approval, renewals
    /// on the way, several users.
    static let restarting =
        FeedRun.demo + """

            observer remove app
            observer add lazy finish=manual
            buy com.example.coins100 as more
            set ask-to-buy on
            buy com.example.pro as again
            set ask-to-buy off
            restart
            expect state more purchased
            approve again
            expect state again purchased
            finish more
            restart
            expect unfinished 1
            user bob
            buy com.example.premium.yearly as yearly
            advance 13 months
            restart
            expect renewals com.example.premium.yearly 1
            user default
            finish again
            restart
            expect state again purchased
            """

    @Test("A feed with restart steps writes the same event log on a state file as in memory")
    func sameLogAsInMemory() throws {
        let directory = try StateDirectory()
        defer { directory.remove() }
        let memory = MemoryEventLog()
        let inMemory = try FeedRun.run(Self.restarting, file: "restarting", log: memory)
        #expect(inMemory.passed, "\(inMemory.failure?.description ?? "")")
        let durable = MemoryEventLog()
        let onFile = try FeedRun.run(
            Self.restarting, file: "restarting", log: durable, statePath: directory.file("state.sqlite"))
        #expect(onFile.passed, "\(onFile.failure?.description ?? "")")
        #expect(durable.text == memory.text)
        #expect(memory.lines.filter { $0.contains("\"event\":\"restarted\"") }.count == 4)
    }

    @Test("A second run on the same state file goes on with the store the first one left")
    func continuesAcrossRuns() throws {
        let directory = try StateDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let first = """
            observer remove app
            observer add keeper finish=manual
            buy com.example.coins100 as coins
            expect state coins purchased
            """
        #expect(try FeedRun.run(first, file: "first", statePath: path).passed)
        let second = """
            expect unfinished 0
            expect history 1
            buy com.example.pro as pro
            expect history 2
            expect charged com.example.coins100 1
            """
        let log = MemoryEventLog()
        let result = try FeedRun.run(second, file: "second", log: log, statePath: path)
        #expect(result.passed, "\(result.failure?.description ?? "")")
        // The app of the second run heard the unfinished purchase first, delivered and finished it.
        let coins = log.lines.filter { $0.contains("com.example.coins100") && !$0.contains("\"event\":\"step\"") }.map {
            line in
            ["updated", "delivered", "removed"].first { line.contains("\"event\":\"\($0)\"") } ?? "other"
        }
        #expect(coins == ["updated", "delivered", "removed"])
    }

    @Test("A state file that cannot be used is a clear error naming it")
    func unusableStateFile() throws {
        let directory = try StateDirectory()
        defer { directory.remove() }
        let path = directory.file("notes.txt")
        try Data("not a database\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: FeedError(.unusableState, file: "f", line: 0, column: 0, "", hint: "")) {
            try FeedRun.run("buy com.example.pro", file: "f", statePath: path)
        }
        do {
            _ = try FeedRun.run("buy com.example.pro", file: "f", statePath: path)
        } catch {
            #expect(error.message.contains(path))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("not a database\n".utf8))
    }

    @Test("An account's Ask to Buy and payments settings stay in the state file for the next run")
    func accountSettingsAcrossRuns() throws {
        let directory = try StateDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let first = """
            user child
            set account-ask-to-buy on
            user teen
            set account-payments off
            """
        #expect(try FeedRun.run(first, file: "first", statePath: path).passed)
        let second = """
            user child
            buy com.example.pro as kid
            expect states kid purchasing deferred
            user teen
            buy com.example.pro as blocked
            expect error blocked paymentNotAllowed
            user parent
            buy com.example.pro as grown
            expect state grown purchased
            """
        let result = try FeedRun.run(second, file: "second", statePath: path)
        #expect(result.passed, "\(result.failure?.description ?? "")")
    }

    @Test(
        "A price increase waiting for consent is asked about again when the app restarts, on a state file as in memory")
    func priceConsentAfterRestart() throws {
        let feed = """
            delegate price-consent yes
            buy com.example.premium.monthly as sub
            price-increase sub request
            expect delegate asked-price-consent
            restart
            expect delegate asked-price-consent
            set price-consent consent
            show-price-consent
            restart
            expect delegate not-asked-price-consent
            advance 8d
            expect phase com.example.premium.monthly active
            """
        let directory = try StateDirectory()
        defer { directory.remove() }
        let memory = MemoryEventLog()
        let inMemory = try FeedRun.run(feed, file: "consent", log: memory)
        #expect(inMemory.passed, "\(inMemory.failure?.description ?? "")")
        let durable = MemoryEventLog()
        let onFile = try FeedRun.run(feed, file: "consent", log: durable, statePath: directory.file("state.sqlite"))
        #expect(onFile.passed, "\(onFile.failure?.description ?? "")")
        #expect(durable.text == memory.text)
        let questions = memory.lines.filter { $0.contains("\"event\":\"shouldShowPriceConsent\"") }
        #expect(questions.count == 2)
        #expect(
            questions.allSatisfy {
                $0.hasSuffix(",\"user\":\"default\",\"pending\":[\"com.example.premium.monthly\"],\"answer\":true}")
            }, "\(questions)")
    }
}
