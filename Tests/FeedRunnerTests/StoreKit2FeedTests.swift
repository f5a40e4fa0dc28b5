import FeedRunner
import Foundation
import TestSupport
import Testing

@Suite("Feeds: StoreKit 2 steps and expectations", .timeLimit(.minutes(1)))
struct StoreKit2FeedTests {
    @Test("A StoreKit 2 purchase, an updates listener, finishing, entitlements, status and verification pass")
    func storeKit2Feed() throws {
        let log = MemoryEventLog()
        let feed = """
            observer remove app
            sk2 listen
            sk2 buy com.example.pro as pro
            expect sk2 result pro success
            expect sk2 verified pro
            expect sk2 unfinished 1
            sk2 finish pro
            expect sk2 unfinished 0
            sk2 buy com.example.premium.monthly as monthly
            sk2 finish monthly
            expect sk2 status premium subscribed
            expect sk2 entitlements com.example.pro com.example.premium.monthly
            buy-elsewhere com.example.season
            expect sk2 updates com.example.season
            """
        let result = try FeedRun.run(feed, file: "sk2.feed", log: log)
        #expect(result.passed, "\(result.failure?.description ?? "")")
        let purchases = log.lines.filter { $0.contains(#""event":"sk2-purchase""#) }
        #expect(purchases.count == 2)
        #expect(purchases.allSatisfy { $0.contains(#""result":"success""#) && $0.contains(#""verified":true"#) })
        let updates = log.lines.filter { $0.contains(#""event":"sk2-update""#) }
        #expect(updates.count == 1)
        #expect(updates.first?.contains(#""product":"com.example.season""#) == true)
    }

    @Test("A failed StoreKit 2 expectation names what was found")
    func failedExpectation() throws {
        let result = try FeedRun.run(
            """
            observer remove app
            sk2 buy com.example.pro as pro
            expect sk2 result pro pending
            """, file: "sk2-fail.feed")
        #expect(result.failure?.line == 3)
        #expect(result.failure?.message.contains("it was success") == true)
    }

    @Test("An unknown sk2 action or expectation is refused with its line and the choices")
    func parseErrors() {
        let action = feedError { () throws(FeedError) in try FeedRun.run("sk2 purchase com.example.pro", file: "a.feed")
        }
        #expect(action?.line == 1)
        #expect(action?.hint.contains("listen, buy and finish") == true)
        let expectation = feedError { () throws(FeedError) in
            try FeedRun.run("expect sk2 status premium dormant", file: "b.feed")
        }
        #expect(expectation?.hint.contains("subscribed") == true)
        let handle = feedError { () throws(FeedError) in try FeedRun.run("sk2 finish nobody", file: "c.feed") }
        #expect(handle?.message.contains("nobody") == true)
        let product = feedError { () throws(FeedError) in try FeedRun.run("sk2 buy com.example.nope", file: "d.feed") }
        #expect(product?.message.contains("com.example.nope") == true)
    }
}
