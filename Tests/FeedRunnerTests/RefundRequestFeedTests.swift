import FeedRunner
import Foundation
import Testing

@Suite("Refund requests in feeds")
struct RefundRequestFeedTests {
    @Test("refund-request and refund-decline leave the purchase as it was, and are logged as steps")
    func requestThenDecline() throws {
        let log = MemoryEventLog()
        let result = try FeedRun.run(
            """
            buy com.example.pro as pro
            refund-request pro FULFILLMENT_ISSUE
            refund-decline pro
            expect owned com.example.pro
            expect receipt pro cancellation_date none
            refund-request pro
            refund pro
            expect phase com.example.pro revoked
            """, file: "requests.feed", log: log)
        #expect(result.passed, "\(result.failure?.description ?? "")")
        let steps = log.lines.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.filter { $0["event"] as? String == "step" }.compactMap { $0["step"] as? String }
        #expect(steps.contains("refund-request pro FULFILLMENT_ISSUE"))
        #expect(steps.contains("refund-decline pro"))
    }

    @Test("a refund request names one of Apple's reasons, or the step is refused at the reason's column")
    func unknownReason() {
        do {
            _ = try FeedRun.run("buy com.example.pro as pro\nrefund-request pro BORED", file: "requests.feed")
            Issue.record("an unknown reason was accepted")
        } catch {
            #expect(error.code == .invalidValue, "\(error)")
            #expect(error.line == 2)
            #expect(error.column == 20)
            #expect(error.description.contains("UNINTENDED_PURCHASE"), "\(error)")
        }
    }

    @Test("declining a refund of a transaction already refunded fails on its line, naming the transaction")
    func declineAfterRefund() throws {
        let result = try FeedRun.run(
            "buy com.example.pro as pro\nrefund pro\nrefund-decline pro", file: "requests.feed")
        let failure = try #require(result.failure)
        #expect(failure.line == 3)
        #expect(failure.message.contains("1000000000000001"), "\(failure.message)")
    }
}
