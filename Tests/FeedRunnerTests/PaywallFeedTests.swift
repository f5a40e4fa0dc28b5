import FeedRunner
import Foundation
import Testing

@Suite("Paywall steps in feeds")
struct PaywallFeedTests {
    static let show = "paywall show premium products com.example.pro,com.example.premium.monthly select com.example.pro"

    @Test("The docs' paywall examples are among the runnable blocks")
    func documented() throws {
        let markdown = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/feeds.md"), encoding: .utf8)
        let blocks = feedBlocks(in: markdown).filter { $0.contains("paywall ") }
        #expect(blocks.count >= 7)
        for block in blocks {
            let result = try FeedRun.run(block, file: "paywall example")
            #expect(result.passed, "\(result.failure?.description ?? "")")
        }
    }

    @Test("Each paywall callback is written to the event log with its JSON payload")
    func log() throws {
        let log = MemoryEventLog()
        let result = try FeedRun.run("\(Self.show)\npaywall purchase", file: "f.feed", log: log)
        #expect(result.passed)
        let lines = log.lines.filter { $0.contains(#""event":"paywall""#) }
        #expect(lines.count == 5)
        let purchase = try #require(lines.first { $0.contains(#""callback":"didFinishPurchase""#) })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(purchase.utf8)) as? [String: Any])
        #expect(object["user"] as? String == "default")
        #expect(object["placement"] as? String == "premium")
        let payload = try #require(object["payload"] as? [String: Any])
        #expect((payload["purchaseResult"] as? [String: Any])?["type"] as? String == "success")
        #expect((payload["product"] as? [String: Any])?["vendorProductId"] as? String == "com.example.pro")
    }

    @Test(
        "Failed paywall expectations say what was observed",
        arguments: [
            (
                "\(show)\nexpect paywall events didAppear",
                "expected callbacks didAppear, observed didAppear didSelectProduct"
            ),
            ("\(show)\nexpect paywall result success", "expected the last purchase success, observed no purchase end"),
            (
                "\(show)\nnext any fails paymentInvalid\npaywall purchase\nexpect paywall result cancelled",
                "expected the last purchase cancelled, observed failed"
            ),
            ("\(show)\nexpect paywall dismissed", "expected the paywall dismissed, it is on screen"),
            ("\(show)\nexpect paywall access pro", "expected active pro access, the profile has none"),
            ("\(show)\nexpect paywall web granted", "expected a web paywall granted; none was opened"),
            (
                "\(show)\nexpect paywall violation dismissed-on-cancel",
                "expected dismissed-on-cancel broken, found none"
            ),
            (
                "\(show)\nexpect paywall analytics flow_screen_showed 1",
                "expected flow_screen_showed 1 times, the delegate heard it 0 times"
            ),
            (
                "expect paywall conformant",
                "no paywall was shown for default; start with `paywall show PLACEMENT products ...`"
            ),
        ]
    )
    func messages(feed: String, message: String) throws {
        let result = try FeedRun.run(feed, file: "f.feed")
        #expect(result.failure?.message == message)
    }

    @Test(
        "Paywall steps that cannot be carried out fail the run",
        arguments: [
            ("paywall purchase", "no paywall is shown for default"),
            ("\(show)\npaywall select com.example.season", "com.example.season is not among the loaded products"),
            ("\(show)\npaywall next-screen", "the paywall has one screen"),
            ("\(show)\npaywall close\npaywall purchase", "it is not on screen"),
        ]
    )
    func impossible(feed: String, message: String) throws {
        let result = try FeedRun.run(feed, file: "f.feed")
        #expect(result.failure?.message.contains(message) == true, "\(result.failure?.message ?? "passed")")
    }

    @Test(
        "Malformed paywall lines are reported before anything runs",
        arguments: [
            ("paywall show premium", 21, "`paywall show` needs its products"),
            ("paywall show premium products com.example.pro colour red", 47, "unknown paywall show option \"colour\""),
            ("paywall fly", 9, "unknown paywall action \"fly\""),
            ("paywall app dance on", 13, "\"dance\" is not an app option"),
            ("expect paywall events didAppear didWave", 33, "\"didWave\" is not a paywall callback"),
            ("expect paywall violation rude", 26, "\"rude\" is not a conformance rule"),
            ("expect paywall web done", 20, "\"done\" is not a web paywall status"),
            ("paywall show p products a,,b", 25, "\"a,,b\" is not a list"),
            ("paywall web-buy com.example.nothing", 17, "no product \"com.example.nothing\" in the catalog (demo)"),
            (
                "paywall show p products com.example.pro,com.example.seasn", 41,
                "no product \"com.example.seasn\" in the catalog (demo)"
            ),
        ]
    )
    func malformed(line: String, column: Int, message: String) {
        do {
            _ = try FeedRun.run(line, file: "bad.feed")
            Issue.record("\(line) ran")
        } catch {
            #expect(error.line == 1)
            #expect(error.column == column)
            #expect(error.message == message)
        }
    }

    @Test("A feed with paywall steps writes the same log twice")
    func deterministic() throws {
        let feed = """
            \(Self.show) web https://pay.example.com/buy
            paywall web-purchase
            paywall return
            advance 5s
            paywall web-buy com.example.pro
            advance 1s
            paywall restore
            """
        let first = MemoryEventLog()
        let second = MemoryEventLog()
        _ = try FeedRun.run(feed, file: "twice", log: first)
        _ = try FeedRun.run(feed, file: "twice", log: second)
        #expect(first.text == second.text)
        #expect(first.text.contains(#""callback":"didFinishRestore""#))
    }
}
