import FeedRunner
import Foundation
import TestSupport
import Testing

@Suite("Feeds: expectations on the notifications a served run sent", .timeLimit(.minutes(1)))
struct NotificationFeedTests {
    static let feed = """
        buy com.example.premium.monthly as monthly
        expect notification SUBSCRIBED INITIAL_BUY for monthly status 1
        advance 1w
        expect notification DID_RENEW product com.example.premium.monthly
        expect notifications 2
        expect no notification
        """

    @Test("validate accepts every form of the notification expectations, and the served example feed")
    func validateAccepts() throws {
        #expect(try FeedParser(file: "served.feed").validate(Self.feed) == 6)
        let example = RepositoryFiles.example("Server/lifecycle.feed")
        let text = try String(contentsOf: example, encoding: .utf8)
        #expect(try FeedParser(file: "lifecycle.feed").validate(text) > 20)
        let family = try String(contentsOf: RepositoryFiles.example("Server/family.feed"), encoding: .utf8)
        #expect(try FeedParser(file: "family.feed").validate(family) > 20)
    }

    @Test("A run without the server refuses the feed before any step, naming the line and --serve")
    func runWithoutServer() {
        let log = MemoryEventLog()
        let error = feedError { () throws(FeedError) in try FeedRun.run(Self.feed, file: "served.feed", log: log) }
        #expect(error?.code == .needsServer)
        #expect(error?.line == 2)
        #expect(error?.column == 8)
        #expect(error?.hint.contains("--serve") == true)
        #expect(log.lines.isEmpty)
    }

    @Test("Unknown types and subtypes, a bad status, an unknown handle and stray words are refused with their place")
    func parseErrors() {
        func error(_ line: String) -> FeedError? {
            feedError { () throws(FeedError) in try FeedRun.run(line, file: "n.feed") }
        }
        let misspelt = error("expect notification DID_RENEWED")
        #expect(misspelt?.code == .invalidValue)
        #expect(misspelt?.column == 21)
        #expect(misspelt?.hint.contains("DID_RENEW") == true)
        let subtype = error("expect notification DID_RENEW GRACE_PERIOD")
        #expect(subtype?.message.contains("not a subtype of DID_RENEW") == true)
        #expect(subtype?.hint.contains("BILLING_RECOVERY") == true)
        #expect(error("expect notification REFUND VOLUNTARY")?.hint.contains("has no subtype") == true)
        #expect(error("expect notification DID_RENEW status 9")?.code == .outOfBounds)
        #expect(error("expect notification DID_RENEW for nobody")?.code == .unknownHandle)
        #expect(error("expect notification DID_RENEW product com.example.nothing")?.code == .unknownProduct)
        let both = error(
            "buy com.example.pro as pro\nexpect notification ONE_TIME_CHARGE for pro product com.example.pro")
        #expect(both?.code == .wrongArguments)
        #expect(both?.line == 2)
        #expect(error("expect notifications many")?.code == .invalidValue)
        #expect(error("expect no notification please")?.code == .wrongArguments)
    }
}
