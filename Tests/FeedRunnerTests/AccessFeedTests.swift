import FeedRunner
import Foundation
import Testing

/// Runs a feed and returns its result.
private func run(_ feed: String) throws(FeedError) -> FeedResult {
    try FeedRun.run(feed, file: "access.feed")
}

/// A monthly subscription (one-week free trial) whose first renewal, on 2026-01-08, fails with a grace period.
private let inGrace = """
    buy com.example.premium.monthly as monthly
    set billing-retry on
    set grace-period on
    advance 1w
    """

@Suite("Access and phases in feeds")
struct AccessFeedTests {
    @Test("In a billing grace period the subscriber keeps access: owned, subscribed until the grace period ends")
    func graceKeepsOwnership() throws {
        let result = try run(
            inGrace + """

                expect owned com.example.premium.monthly
                expect subscribed com.example.premium.monthly until 2026-01-24T00:00:00Z
                """)
        #expect(result.passed, "\(result.failure?.description ?? "")")
    }

    @Test("In a billing grace period the phase is grace and access is on")
    func graceKeepsAccess() throws {
        let result = try run(
            inGrace + """

                expect phase com.example.premium.monthly grace
                expect access com.example.premium.monthly on
                """)
        #expect(result.passed, "\(result.failure?.description ?? "")")
    }

    @Test("Grace is only for the grace period: billing retry afterwards has no access")
    func billingRetryAfterGrace() throws {
        let result = try run(
            inGrace + """

                advance 16d
                expect phase com.example.premium.monthly billing-retry
                expect access com.example.premium.monthly off
                expect not-owned com.example.premium.monthly
                expect not-subscribed com.example.premium.monthly
                """)
        #expect(result.passed, "\(result.failure?.description ?? "")")
    }

    @Test("Without a grace period, a failed renewal goes straight to billing retry, with no access")
    func billingRetryWithoutGrace() throws {
        let result = try run(
            """
            buy com.example.premium.monthly
            set billing-retry on
            advance 1w
            expect phase com.example.premium.monthly billing-retry
            expect access com.example.premium.monthly off
            """)
        #expect(result.passed, "\(result.failure?.description ?? "")")
    }

    @Test("A recovered subscription is active again with access")
    func recovery() throws {
        let result = try run(
            inGrace + """

                advance 16d
                set billing-retry off
                advance 1w
                expect phase com.example.premium.monthly active
                expect access com.example.premium.monthly on
                """)
        #expect(result.passed, "\(result.failure?.description ?? "")")
    }

    @Test("Expired, revoked, upgraded and never bought have no access; the upgrade has it")
    func phasesWithoutAccess() throws {
        let result = try run(
            """
            expect phase com.example.premium.monthly none
            expect access com.example.premium.monthly off
            buy com.example.premium.monthly as monthly
            expect phase com.example.premium.monthly active
            buy com.example.premium.yearly as yearly
            expect phase com.example.premium.monthly upgraded
            expect access com.example.premium.monthly off
            expect not-owned com.example.premium.monthly
            expect phase com.example.premium.yearly active
            expect access com.example.premium.yearly on
            refund yearly
            expect phase com.example.premium.yearly revoked
            expect access com.example.premium.yearly off
            buy com.example.pro as pro
            expect phase com.example.pro active
            expect access com.example.pro on
            user bob
            buy com.example.premium.yearly as bobs
            auto-renew bobs off
            advance 1y
            expect phase com.example.premium.yearly expired
            expect access com.example.premium.yearly off
            """)
        #expect(result.passed, "\(result.failure?.description ?? "")")
    }

    @Test("A wrong access or phase expectation fails, naming its line, what was expected and what is")
    func wrongExpectationsFail() throws {
        let access = try run(inGrace + "\nexpect access com.example.premium.monthly off")
        let failure = try #require(access.failure)
        #expect(failure.line == 5)
        #expect(failure.message == "expected access to com.example.premium.monthly off, it is on (grace)")

        let phase = try run(inGrace + "\nexpect phase com.example.premium.monthly billing-retry")
        #expect(phase.failure?.line == 5)
        #expect(phase.failure?.message == "expected com.example.premium.monthly billing-retry, it is grace")

        let upgraded = try run(
            "buy com.example.premium.monthly\nbuy com.example.premium.yearly\nexpect access com.example.premium.monthly on"
        )
        #expect(
            upgraded.failure?.message == "expected access to com.example.premium.monthly on, it is off (upgraded)")
    }

    @Test("The paywall's profile keeps the access level in a grace period, and loses it in billing retry")
    func paywallProfileInGrace() throws {
        let feed = """
            paywall show premium products com.example.premium.monthly select com.example.premium.monthly
            paywall purchase
            expect paywall access premium
            set billing-retry on
            set grace-period on
            advance 1w
            expect paywall access premium
            advance 16d
            expect paywall no-access premium
            """
        let result = try run(feed)
        #expect(result.passed, "\(result.failure?.description ?? "")")
    }

    @Test(
        "Malformed access and phase expectations are reported with the column and the accepted words",
        arguments: [
            ("expect access com.example.pro maybe", "\"maybe\" is not on or off", 31),
            ("expect phase com.example.pro lapsed", "\"lapsed\" is not a phase", 30),
            ("expect access com.example.pro", "missing on or off", 30),
        ]
    )
    func malformed(text: String, message: String, column: Int) {
        do {
            _ = try run(text)
            Issue.record("\"\(text)\" was accepted")
        } catch {
            #expect(error.message == message, "\(error)")
            #expect(error.line == 1)
            #expect(error.column == column, "\(error)")
        }
    }

    @Test("grace-period, the phase's earlier name, still reads as grace")
    func earlierName() throws {
        let result = try run(inGrace + "\nexpect phase com.example.premium.monthly grace-period")
        #expect(result.passed, "\(result.failure?.description ?? "")")
    }
}
