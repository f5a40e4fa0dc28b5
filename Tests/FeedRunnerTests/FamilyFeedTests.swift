import FeedRunner
import Foundation
import Testing

/// Runs a feed and returns its result.
private func run(_ feed: String) throws(FeedError) -> FeedResult {
    try FeedRun.run(feed, file: "family.feed")
}

@Suite("Family Sharing in feeds")
struct FamilyFeedTests {
    @Test("A family member has what another bought, until the purchase is refunded")
    func sharedUntilRefunded() throws {
        let result = try run(
            """
            family smiths alice default
            user alice
            buy com.example.pro as pro
            user default
            expect access com.example.pro on
            user alice
            refund pro
            user default
            expect access com.example.pro off
            """)
        #expect(result.passed, "\(result.failure?.description ?? "")")
    }

    @Test("Leaving the family takes away what the family shared, and the account's own purchases stay")
    func leavingTakesItAway() throws {
        let result = try run(
            """
            family smiths alice default
            user alice
            buy com.example.pro
            user default
            buy com.example.coins100
            expect access com.example.pro on
            leave-family default
            expect access com.example.pro off
            user alice
            expect access com.example.pro on
            """)
        #expect(result.passed, "\(result.failure?.description ?? "")")
    }

    @Test("Without shareable products nothing is shared: the demo's subscriptions are not marked familyShareable")
    func notShareable() throws {
        let result = try run(
            """
            family smiths alice default
            user alice
            buy com.example.premium.monthly
            user default
            expect access com.example.premium.monthly on
            """)
        #expect(!result.passed)
        #expect(result.failure?.description.contains("com.example.premium.monthly") == true)
    }

    @Test("A family step without users, and leaving no family, are errors naming the line and what to do")
    func badSteps() throws {
        let missing = #expect(throws: FeedError.self) { try run("family smiths") }
        #expect(missing?.description.contains("family.feed:1") == true)
        #expect(missing?.description.contains("missing the users") == true)
        let result = try run("leave-family bob")
        #expect(!result.passed)
        #expect(result.failure?.description.contains("bob is in no family") == true)
    }
}
