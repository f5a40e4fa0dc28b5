import FeedRunner
import Foundation
import Testing

@Suite("Feeds that move the clock far", .timeLimit(.minutes(1)))
struct LongAdvanceFeedTests {
    @Test("`advance 99999999999999d` after buying a subscription stops with a clear error instead of exhausting memory")
    func hugeAdvance() {
        let feed = """
            buy com.example.premium.monthly as m
            advance 99999999999999d
            expect renewals com.example.premium.monthly 0
            """
        do {
            let result = try FeedRun.run(feed, file: "huge.feed")
            let failure = result.failure?.description ?? ""
            #expect(!result.passed)
            #expect(failure.contains("line 2"), "\(failure)")
            #expect(failure.contains("9999-12-31T23:59:59Z"), "\(failure)")
        } catch {
            // Refused before it runs: as clear, and as bounded.
            #expect(error.description.contains("huge.feed"))
        }
    }

    @Test("A century of monthly renewals in one advance runs and keeps every renewal")
    func centuryOfRenewals() throws {
        let feed = """
            buy com.example.premium.monthly as m
            advance 100y
            expect renewals com.example.premium.monthly 1200
            """
        let result = try FeedRun.run(feed, file: "century.feed")
        #expect(result.passed, "\(result.failure?.description ?? "")")
    }

    @Test("The log of a move over several renewals is in time order: each renewal before what the app heard of it")
    func renewalsAreLoggedInTimeOrder() throws {
        let feed = """
            buy com.example.premium.monthly as m
            advance 3 months
            """
        let log = MemoryEventLog()
        let result = try FeedRun.run(feed, file: "renewals.feed", log: log)
        #expect(result.passed)
        let events = try log.lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        let times = events.compactMap { $0["time"] as? String }
        #expect(times == times.sorted(), "\(log.text)")
        let advance = try #require(events.firstIndex { $0["step"] as? String == "advance 3 months" })
        let afterAdvance = events[(advance + 1)...].compactMap { event -> String? in
            guard let name = event["event"] as? String, name == "subscription" || name == "updated" else { return nil }
            return "\(name) \(event["time"] as? String ?? "")"
        }
        #expect(
            afterAdvance == [
                "subscription 2026-01-08T00:00:00Z", "updated 2026-01-08T00:00:00Z",
                "subscription 2026-02-08T00:00:00Z", "updated 2026-02-08T00:00:00Z",
                "subscription 2026-03-08T00:00:00Z", "updated 2026-03-08T00:00:00Z",
            ])
    }
}
