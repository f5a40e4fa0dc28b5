import FeedRunner
import Foundation
import TestSupport
import Testing

@Suite("Feeds: sk2 buy ... plan and expect sk2 billing-plan", .timeLimit(.minutes(1)))
struct BillingPlanFeedTests {
    static let annual = BillingPlanFixture.annual

    /// A fresh folder holding the billing plans' `.storekit` file, as plans.storekit.
    static func folder() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("plans-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try BillingPlanFixture.data.write(to: directory.appendingPathComponent("plans.storekit"))
        return directory
    }

    @Test("The plan option and the billing-plan expectation parse")
    func goodLines() throws {
        let feed = """
            config plans.storekit
            sk2 buy com.example.plan.annual plan monthly as a
            sk2 buy com.example.plan.annual plan up-front quantity 1
            expect sk2 billing-plan a monthly
            expect sk2 billing-plan a monthly period 12
            expect sk2 billing-plan a up-front
            expect sk2 billing-plan com.example.plan.monthly none
            """
        #expect(try FeedParser(file: "plans.feed", baseDirectory: try Self.folder()).validate(feed) == 7)
    }

    @Test(
        "A malformed plan option or billing-plan expectation is refused with its line, column and what to write",
        arguments: [
            ("sk2 buy com.example.pro plan", 29, "missing a billing plan (monthly, up-front)", "add"),
            ("sk2 buy com.example.pro plan weekly", 30, "\"weekly\" is not a billing plan", "monthly, up-front"),
            ("sk2 buy com.example.pro plan none", 30, "\"none\" is not a billing plan", "monthly, up-front"),
            ("expect sk2 billing-plan a yearly", 27, "\"yearly\" is not a billing plan", "monthly, up-front, none"),
            ("expect sk2 billing-plan a monthly for 2", 35, "unknown billing-plan option \"for\"", "[period N]"),
            ("expect sk2 billing-plan a up-front period 1", 36, "only a monthly billing plan has", "monthly period N"),
            ("expect sk2 billing-plan a monthly period 13", 42, "billing period 13 is outside 1...12", "12 monthly"),
            ("expect sk2 billing-plan a monthly period 0", 42, "billing period 0 is outside 1...12", "12 monthly"),
            ("expect sk2 billing-plan a monthly period 2 3", 44, "unexpected \"3\"", "remove it"),
            ("expect sk2 billing-plan", 1, "missing", "add"),
        ])
    func badLines(line: String, column: Int, message: String, hint: String) {
        let error = feedError { () throws(FeedError) in
            try FeedRun.run("observer remove app\n" + line, file: "bad.feed")
        }
        #expect(error?.file == "bad.feed")
        #expect(error?.line == 2)
        if column > 1 { #expect(error?.column == column, "\(error?.description ?? "no error")") }
        #expect(error?.message.contains(message) == true, "\(error?.description ?? "no error")")
        #expect(error?.hint.contains(hint) == true, "\(error?.description ?? "no error")")
    }

    @Test("A plan the catalog's product does not offer is refused before any step runs, listing its plans")
    func planNotOffered() throws {
        let directory = try Self.folder()
        let log = MemoryEventLog()
        let error = feedError { () throws(FeedError) in
            try FeedRun.run(
                "config plans.storekit\nsk2 buy com.example.plan.monthly plan monthly", file: "plans.feed",
                baseDirectory: directory, log: log)
        }
        #expect(error?.line == 2)
        #expect(error?.column == 39)
        #expect(error?.message == "com.example.plan.monthly offers no monthly billing plan")
        #expect(error?.hint.hasPrefix("its billing plans are up-front") == true, "\(error?.description ?? "")")
        #expect(log.lines.isEmpty)
        let demo = feedError { () throws(FeedError) in
            try FeedRun.run("sk2 buy com.example.pro plan up-front", file: "d")
        }
        #expect(demo?.message == "com.example.pro is not an auto-renewable subscription; it has no billing plans")
    }

    @Test("Buying monthly: payment 1 of 12, then 2 of 12 after a month; a wrong expectation says what it found")
    func monthlyFeed() throws {
        let directory = try Self.folder()
        let feed = """
            config plans.storekit
            observer remove app
            sk2 listen
            sk2 buy com.example.plan.annual plan monthly as first
            expect sk2 result first success
            expect sk2 billing-plan first monthly period 1
            sk2 finish first
            advance 1 month
            expect sk2 billing-plan com.example.plan.annual monthly period 2
            """
        let result = try FeedRun.run(feed, file: "plans.feed", baseDirectory: directory)
        #expect(result.passed, "\(result.failure?.description ?? "")")
        #expect(result.expectations == 3)

        let wrong = try FeedRun.run(
            feed + "\nexpect sk2 billing-plan first monthly period 3", file: "plans.feed", baseDirectory: directory)
        #expect(wrong.failure?.line == 10)
        #expect(wrong.failure?.message == "expected first's billing plan monthly period 3, it is monthly period 1")
        let upFront = try FeedRun.run(
            feed + "\nexpect sk2 billing-plan first up-front", file: "plans.feed", baseDirectory: directory)
        #expect(upFront.failure?.message == "expected first's billing plan up-front, it is monthly period 1")
    }

    @Test("Without a plan the annual subscription is bought up front; a subscription without plans has none")
    func defaultPlans() throws {
        let directory = try Self.folder()
        let result = try FeedRun.run(
            """
            config plans.storekit
            observer remove app
            sk2 buy com.example.plan.annual as annual
            expect sk2 billing-plan annual up-front
            user bob
            observer remove app
            sk2 buy com.example.plan.monthly as monthly
            expect sk2 billing-plan monthly none
            """, file: "plans.feed", baseDirectory: directory)
        #expect(result.passed, "\(result.failure?.description ?? "")")
    }
}
