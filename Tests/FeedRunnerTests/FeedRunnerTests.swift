import FeedRunner
import Foundation
import TestSupport
import Testing

/// The repository's root, found from this file.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The complete feeds in a Markdown file's ```feed blocks.
func feedBlocks(in markdown: String) -> [String] {
    var blocks: [String] = []
    var current: [Substring]?
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
        if current == nil, line == "```feed" {
            current = []
        } else if current != nil, line == "```" {
            blocks.append(current!.joined(separator: "\n"))
            current = nil
        } else {
            current?.append(line)
        }
    }
    return blocks
}

@Suite("Running feeds")
struct FeedRunnerTests {
    @Test("Every example in docs/feeds.md runs and passes")
    func documentationExamples() throws {
        let markdown = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/feeds.md"), encoding: .utf8)
        let blocks = feedBlocks(in: markdown)
        #expect(blocks.count >= 6)
        for (index, block) in blocks.enumerated() {
            let result = try FeedRun.run(block, file: "docs/feeds.md example \(index + 1)")
            #expect(result.passed, "\(result.failure?.description ?? "")")
            #expect(result.expectations > 0)
        }
    }

    @Test("Every feed in Examples/ passes")
    func examples() throws {
        let directory = repositoryRoot.appendingPathComponent("Examples")
        let feeds = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".feed") }
        #expect(feeds.count >= 5)
        for feed in feeds.sorted() {
            let result = try FeedRun.run(contentsOf: directory.appendingPathComponent(feed))
            #expect(result.passed, "\(feed): \(result.failure?.description ?? "")")
        }
    }

    @Test("The built-in demo passes and covers a purchase, a failure, an Ask to Buy approval and a restore")
    func demo() throws {
        let log = MemoryEventLog()
        let result = try FeedRun.run(FeedRun.demo, file: "demo", log: log)
        #expect(result.passed)
        let text = log.text
        #expect(text.contains("\"state\":\"purchased\""))
        #expect(text.contains("\"state\":\"failed\""))
        #expect(text.contains("\"state\":\"deferred\""))
        #expect(text.contains("\"event\":\"restoreFinished\""))
        #expect(log.lines.last?.hasPrefix("{\"seq\":\(log.lines.count),") == true)
    }

    @Test("Two runs of the same feed write byte-identical logs")
    func deterministicLogs() throws {
        let feed = FeedRun.demo + "\nrestart\nuser bob\nbuy com.example.premium.yearly\nadvance 1 month\nrestore\n"
        let first = MemoryEventLog()
        let second = MemoryEventLog()
        _ = try FeedRun.run(feed, file: "twice", log: first)
        _ = try FeedRun.run(feed, file: "twice", log: second)
        #expect(first.text == second.text)
        #expect(first.lines.count > 40)
    }

    @Test("Every log line is a JSON object with seq, time and event first")
    func logShape() throws {
        let log = MemoryEventLog()
        _ = try FeedRun.run(FeedRun.demo, file: "demo", log: log)
        for (index, line) in log.lines.enumerated() {
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                "line \(index + 1) is not a JSON object"
            )
            #expect(object["seq"] as? Int == index + 1)
            #expect(object["time"] is String)
            #expect(object["event"] is String)
            #expect(line.hasPrefix("{\"seq\":\(index + 1),\"time\":"))
        }
    }

    @Test("A failed expectation stops the run and names its line and what was observed")
    func failedExpectation() throws {
        let feed = """
            buy com.example.pro as pro
            expect states pro purchasing failed
            expect owned com.example.pro
            """
        let log = MemoryEventLog()
        let result = try FeedRun.run(feed, file: "f.feed", log: log)
        let failure = try #require(result.failure)
        #expect(failure.line == 2)
        #expect(failure.message == "expected states purchasing failed, observed purchasing purchased")
        #expect(result.steps == 2, "the run stops at the first failure")
        #expect(log.lines.last?.contains("\"event\":\"failed-feed\"") == true)
    }

    @Test(
        "Each expectation kind can fail with a message that says what was observed",
        arguments: [
            ("buy com.example.pro as t\nexpect state t failed", "expected state failed, observed purchased"),
            (
                "observer remove app\nbuy com.example.pro as t\nexpect removed t",
                "expected t removed from the queue; it was not"
            ),
            (
                "buy com.example.pro as t\nexpect error t paymentCancelled",
                "expected error paymentCancelled, observed none"
            ),
            ("expect restore finished", "expected the restore to finish; it has not ended"),
            ("restore\nexpect restore failed", "expected the restore to fail; it finished"),
            ("expect unfinished 1", "expected 1 unfinished transactions, found 0"),
            ("expect owned com.example.pro", "expected com.example.pro owned, it is not owned"),
            (
                "expect subscribed com.example.premium.yearly",
                "expected com.example.premium.yearly active, it is inactive"
            ),
            ("expect revoked com.example.pro", "expected com.example.pro revoked; the app heard no revocation"),
            ("expect history 2", "expected 2 transactions in the store's history, found 0"),
            (
                "buy com.example.pro\nexpect charged com.example.pro 2",
                "expected com.example.pro charged 2 times, charged 1"
            ),
        ]
    )
    func expectationMessages(feed: String, message: String) throws {
        let result = try FeedRun.run(feed, file: "f.feed")
        #expect(result.failure?.message == message)
    }

    @Test("A step that cannot be carried out fails the run")
    func impossibleStep() throws {
        let result = try FeedRun.run("buy com.example.pro as t\napprove t", file: "f.feed")
        #expect(result.failure?.line == 2)
        #expect(result.failure?.message.contains("not waiting for Ask to Buy approval") == true)
    }

    @Test("Settings change what happens")
    func settings() throws {
        let feed = """
            set fail-transactions on paymentInvalid
            buy com.example.pro as a
            expect error a paymentInvalid
            set fail-transactions off
            set payments-allowed off
            buy com.example.pro as b
            expect error b paymentNotAllowed
            set payments-allowed on
            set interrupted-purchases on
            buy com.example.pro as c
            expect error c paymentCancelled
            set interrupted-purchases off
            set storefront GBR
            set locale en_GB
            set error purchase unknown
            buy com.example.pro as d
            expect error d unknown
            set error purchase off
            next any asks-to-buy
            buy com.example.pro as e
            expect state e deferred
            next com.example.pro is-interrupted
            buy com.example.pro as f
            expect state f failed
            next any succeeds
            buy com.example.pro ask-to-buy as g
            expect state g purchased
            """
        let log = MemoryEventLog()
        let result = try FeedRun.run(feed, file: "settings.feed", log: log)
        #expect(result.passed, "\(result.failure?.description ?? "")")
        #expect(
            log.text.contains(
                "\"event\":\"storefrontChanged\",\"user\":\"default\",\"observer\":\"app\",\"storefront\":\"GBR\""))
    }

    @Test("Subscription controls: auto-renew, price increases, expire and renew")
    func subscriptionControls() throws {
        let feed = """
            buy com.example.premium.yearly as yearly
            auto-renew yearly off
            advance 1y
            expect phase com.example.premium.yearly expired
            expect not-subscribed com.example.premium.yearly
            buy com.example.premium.yearly as again
            expect phase com.example.premium.yearly active
            renew com.example.premium.yearly
            expect renewals com.example.premium.yearly 1
            price-increase again request
            price-increase again decline
            advance 1y
            expect phase com.example.premium.yearly expired
            buy com.example.premium.yearly as third
            expire com.example.premium.yearly
            expect not-subscribed com.example.premium.yearly
            """
        let log = MemoryEventLog()
        let result = try FeedRun.run(feed, file: "controls.feed", log: log)
        #expect(result.passed, "\(result.failure?.description ?? "")")
        // Declining a price increase turns auto-renewal off, as Apple documents, so both end the same way.
        #expect(log.text.components(separatedBy: "\"kind\":\"expired(autoRenewDisabled)\"").count - 1 == 2)
        #expect(log.text.contains("\"kind\":\"expired(expiredByTest)\""))
    }

    @Test("A config step loads a .storekit file relative to the feed")
    func configFile() throws {
        let examples = RepositoryFiles.examples
        let feed = """
            config Default.storekit
            buy com.example.consumable as coins
            expect states coins purchasing purchased
            """
        let result = try FeedRun.run(feed, file: "config.feed", baseDirectory: examples)
        #expect(result.passed, "\(result.failure?.description ?? "")")
        // The file's catalog replaces the demo's: its products are checked before anything runs.
        let log = MemoryEventLog()
        do {
            _ = try FeedRun.run(
                "config Default.storekit\nbuy com.example.pro", file: "config.feed", baseDirectory: examples, log: log)
            Issue.record("a product outside the file's catalog was accepted")
        } catch {
            #expect(error == FeedError(.unknownProduct, file: "config.feed", line: 2, column: 5, "", hint: ""))
            #expect(error.message.contains("Default.storekit"), "\(error)")
            #expect(error.hint.contains("com.example."), "\(error)")
        }
        #expect(log.lines.isEmpty)
        #expect(throws: FeedError(.badConfiguration, file: "config.feed", line: 1, column: 8, "", hint: "")) {
            try FeedRun.run("config nowhere.storekit", file: "config.feed", baseDirectory: examples)
        }
    }

    @Test("A config step loads a .storekit file written by Xcode", .requiresSharedData)
    func configSample() throws {
        let feed = """
            config manicmaniac-Default.v1_1.storekit
            buy com.example.consumable as coins
            expect states coins purchasing purchased
            """
        let result = try FeedRun.run(feed, file: "config.feed", baseDirectory: SharedData.storeKitSamples)
        #expect(result.passed, "\(result.failure?.description ?? "")")
    }
}

@Suite("Feed errors")
struct FeedErrorTests {
    @Test(
        "Every malformed line is reported with its place, a message and a hint",
        arguments: [
            ("purchase com.example.pro", FeedError.Code.unknownStep, 1, 1),
            ("buy", .wrongArguments, 1, 4),
            ("buy com.example.pro quantity", .wrongArguments, 1, 29),
            ("buy com.example.pro quantity many", .invalidValue, 1, 30),
            ("buy com.example.pro colour red", .wrongArguments, 1, 21),
            ("set ask-to-buy maybe", .invalidValue, 1, 16),
            ("set speed fast", .invalidValue, 1, 5),
            ("set storefront US", .invalidValue, 1, 16),
            ("set fail-transactions on notACode", .invalidValue, 1, 26),
            ("set error checkout unknown", .invalidValue, 1, 11),
            ("set history some", .invalidValue, 1, 13),
            ("advance soon", .invalidValue, 1, 9),
            ("advance 3 fortnights", .invalidValue, 1, 9),
            ("advance", .invalidValue, 1, 1),
            ("buy com.example.pro as t\nexpect states t purchasing purchasd", .invalidValue, 2, 28),
            ("expect states t purchased", .unknownHandle, 1, 15),
            ("buy com.example.pro as t\nbuy com.example.pro as t", .unknownHandle, 2, 24),
            ("approve t1", .unknownHandle, 1, 9),
            ("expect sunshine", .invalidValue, 1, 8),
            ("expect states com.example.pro", .wrongArguments, 1, 15),
            ("expect restore maybe", .invalidValue, 1, 16),
            ("expect subscribed com.example.pro until tomorrow", .invalidValue, 1, 41),
            ("expect unfinished 1 2", .wrongArguments, 1, 21),
            ("observer add x finish=sometimes", .invalidValue, 1, 16),
            ("observer rename x", .invalidValue, 1, 10),
            ("next com.example.pro explodes", .invalidValue, 1, 22),
            ("restart now", .wrongArguments, 1, 9),
            ("refund", .wrongArguments, 1, 7),
            ("buy-elsewhere com.example.pro colour red", .wrongArguments, 1, 31),
            ("buy com.example.pro as t\nprice-increase t maybe", .invalidValue, 2, 18),
            ("buy com.example.pro as t\nauto-renew t sometimes", .invalidValue, 2, 14),
            ("expect phase com.example.pro sleeping", .invalidValue, 1, 30),
            ("expect renewals com.example.pro many", .invalidValue, 1, 33),
            ("resolve nobody", .unknownHandle, 1, 9),
        ]
    )
    func malformed(text: String, code: FeedError.Code, line: Int, column: Int) {
        do {
            _ = try FeedRun.run("# a comment\n\n" + text, file: "bad.feed")
            Issue.record("\"\(text)\" was accepted")
        } catch {
            #expect(error.code == code, "\(error)")
            #expect(error.file == "bad.feed")
            #expect(error.line == line + 2)
            #expect(error.column == column, "\(error)")
            #expect(!error.hint.isEmpty)
            #expect(error.description.hasPrefix("bad.feed:\(line + 2):\(column): error: "))
        }
    }

    @Test("Nothing runs when any line is malformed")
    func nothingRuns() {
        let log = MemoryEventLog()
        #expect(throws: FeedError.self) {
            try FeedRun.run("buy com.example.pro\nbuy com.example.pro\nexpect nonsense", file: "f", log: log)
        }
        #expect(log.lines.isEmpty)
    }

    @Test("An unreadable feed file is reported with its path")
    func unreadable() {
        #expect(throws: FeedError(.unreadable, file: "/nowhere/x.feed", line: 0, column: 0, "", hint: "")) {
            try FeedRun.run(contentsOf: URL(fileURLWithPath: "/nowhere/x.feed"))
        }
    }
}

@Suite("Durations, dates and generated feeds")
struct FeedValueTests {
    @Test(
        "Durations in every unit",
        arguments: [
            (["90s"], 90.0, 0, 0), (["30m"], 1_800, 0, 0), (["2h"], 7_200, 0, 0), (["3d"], 259_200, 0, 0),
            (["2w"], 1_209_600, 0, 0), (["1", "month"], 0, 1, 0), (["1y"], 0, 0, 1), (["1d", "12h"], 129_600, 0, 0),
            (["2", "weeks"], 1_209_600, 0, 0), (["3mo"], 0, 3, 0),
        ])
    func durations(words: [String], seconds: Double, months: Int, years: Int) throws {
        let duration = try #require(FeedDuration(words: words))
        #expect(duration.seconds == seconds)
        #expect(duration.months == months)
        #expect(duration.years == years)
    }

    @Test("A month after January 31 is the end of February")
    func calendarMonths() throws {
        let start = try #require(ISO8601.parse("2026-01-31T10:00:00Z"))
        let duration = try #require(FeedDuration(words: ["1", "month"]))
        #expect(ISO8601.format(duration.after(start)) == "2026-02-28T10:00:00Z")
    }

    @Test(
        "ISO 8601 dates round-trip",
        arguments: ["1970-01-01T00:00:00Z", "2026-01-01T00:00:00Z", "2024-02-29T23:59:59Z", "2100-12-31T12:30:00Z"])
    func dates(text: String) throws {
        let date = try #require(ISO8601.parse(text))
        #expect(ISO8601.format(date) == text)
        #expect(Int(date.timeIntervalSince1970) == Int(ISO8601DateFormatter().date(from: text)!.timeIntervalSince1970))
    }

    @Test("Not dates", arguments: ["2026-13-01", "2026-01-01T25:00:00Z", "yesterday", "2026-01-01T10:00:00+01:00", ""])
    func notDates(text: String) {
        #expect(ISO8601.parse(text) == nil)
    }

    @Test("A generated feed is the same for the same seed, different for another, and passes")
    func generated() throws {
        func feed(seed: UInt64) -> String {
            var lines: [String] = []
            FeedGenerator(users: 20, steps: 2_000, seed: seed).write { lines.append($0) }
            return lines.joined(separator: "\n")
        }
        let first = feed(seed: 7)
        #expect(first == feed(seed: 7))
        #expect(first != feed(seed: 8))
        let result = try FeedRun.run(first, file: "generated")
        #expect(result.passed, "\(result.failure?.description ?? "")")
        #expect(result.steps >= 2_000)
        #expect(result.expectations > 50)
    }
}

@Suite("History retention in feeds")
struct HistoryRetentionTests {
    @Test("receipt-only forgets finished consumables; all keeps them")
    func retention() throws {
        let keep = try FeedRun.run("buy com.example.coins100\nbuy com.example.coins100\nexpect history 2", file: "all")
        #expect(keep.passed, "\(keep.failure?.description ?? "")")
        let forget = try FeedRun.run(
            "set history receipt-only\nbuy com.example.coins100\nbuy com.example.pro\nexpect history 1",
            file: "receipt-only"
        )
        #expect(forget.passed, "\(forget.failure?.description ?? "")")
    }
}
