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
}
