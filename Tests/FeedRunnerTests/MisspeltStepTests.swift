import FeedRunner
import Testing

@Suite("Misspelt feed words")
struct MisspeltStepTests {
    @Test("A misspelt step or expectation gets the closest names as its hint")
    func misspeltStep() {
        for (feed, hint) in [
            ("expct owned com.example.no-ads", "did you mean expect?"),
            ("advanse 1d", "did you mean advance?"),
            ("expect ownd com.example.no-ads", "did you mean owned?"),
        ] {
            do {
                _ = try FeedRun.run(feed, file: "typo.feed")
                Issue.record("\(feed): expected an error")
            } catch {
                #expect(error.description.contains(hint), "\(feed): \(error.description)")
            }
        }
        do {
            _ = try FeedRun.run("xyzzy", file: "typo.feed")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("steps are config, set"), "\(error.description)")
            #expect(!error.description.contains("did you mean"))
        }
    }
}
