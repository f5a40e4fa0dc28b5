import FeedRunner
import Foundation
import Testing

@Suite("Refund reversals in feeds")
struct RefundReversalFeedTests {
    @Test("reverse-refund gives a refunded purchase back: receipt without a cancellation date, access on")
    func reversalReinstates() throws {
        let result = try FeedRun.run(
            """
            buy com.example.pro as pro
            buy com.example.premium.monthly as monthly
            advance 2d
            refund pro
            refund monthly
            expect phase com.example.pro revoked
            expect access com.example.premium.monthly off
            reverse-refund pro
            reverse-refund monthly
            expect phase com.example.pro active
            expect receipt pro cancellation_date none
            expect access com.example.premium.monthly on
            expect subscribed com.example.premium.monthly until 2026-01-08T00:00:00Z
            """, file: "reversal.feed")
        #expect(result.passed, "\(result.failure?.description ?? "")")
    }

    @Test("reverse-refund is logged as a step, and StoreKit 2 hears the transaction again without its revocation")
    func reversalIsLogged() throws {
        let log = MemoryEventLog()
        let result = try FeedRun.run(
            """
            observer remove app
            sk2 listen
            buy com.example.pro as pro
            refund pro
            reverse-refund pro
            """, file: "reversal.feed", log: log)
        #expect(result.passed, "\(result.failure?.description ?? "")")
        let objects = log.lines.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(objects.contains { $0["event"] as? String == "step" && $0["step"] as? String == "reverse-refund pro" })
        let updates = objects.filter { $0["event"] as? String == "sk2-update" }.map { $0["revoked"] as? Bool }
        #expect(updates == [false, true, false], "the purchase, its refund, then the reversal")
    }

    @Test("reverse-refund of a purchase never refunded fails on its line, naming the transaction")
    func neverRefunded() throws {
        let result = try FeedRun.run("buy com.example.pro as pro\nreverse-refund pro", file: "reversal.feed")
        let failure = try #require(result.failure)
        #expect(failure.line == 2)
        #expect(failure.message.contains("transaction 1000000000000001"), "\(failure.message)")
        #expect(failure.message.contains("never refunded"), "\(failure.message)")
    }

    @Test("reverse-refund needs one reference")
    func needsAReference() {
        #expect(throws: FeedError.self) { try FeedRun.run("reverse-refund", file: "reversal.feed") }
        do {
            _ = try FeedRun.run("reverse-refund", file: "reversal.feed")
        } catch {
            #expect(error.code == .wrongArguments, "\(error)")
            #expect(error.line == 1)
        }
    }
}
