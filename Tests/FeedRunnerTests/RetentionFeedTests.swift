import FeedRunner
import Foundation
import Testing

@Suite("Retention Messaging in feeds")
struct RetentionFeedTests {
    @Test("cancellation-flow records what the customer was shown and logs it; without a server, nothing is configured")
    func flowIsRecordedAndLogged() throws {
        let log = MemoryEventLog()
        let result = try FeedRun.run(
            """
            buy com.example.premium.monthly as monthly
            cancellation-flow monthly fr-FR
            cancellation-flow com.example.premium.monthly
            """, file: "retention.feed", log: log)
        #expect(result.passed, "\(result.failure?.description ?? "")")
        let shown = log.lines.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.filter { $0["event"] as? String == "retentionMessage" }
        #expect(shown.map { $0["locale"] as? String } == ["fr-FR", "en-US"])
        #expect(
            shown.allSatisfy {
                $0["source"] as? String == "none" && $0["product"] as? String == "com.example.premium.monthly"
            })
    }

    @Test("cancellation-flow of a purchase that is not a subscription fails on its line")
    func needsASubscription() throws {
        let result = try FeedRun.run("buy com.example.pro as pro\ncancellation-flow pro", file: "retention.feed")
        let failure = try #require(result.failure)
        #expect(failure.line == 2)
        #expect(
            failure.message.contains("not the original transaction of a purchased subscription"), "\(failure.message)")
    }
}
