import Foundation
import Testing

@testable import FeedRunner

@Suite("Feed dates")
struct ISO8601Tests {
    @Test("A day the month does not have is not a date", arguments: ["2026-02-29", "2026-02-30T10:00Z", "2026-04-31"])
    func daysOutsideTheMonth(text: String) {
        #expect(ISO8601.parse(text) == nil)
    }

    @Test("The last day of each month is a date")
    func lastDays() {
        #expect(ISO8601.parse("2024-02-29") != nil)
        #expect(ISO8601.parse("2026-04-30T23:59:59Z").map(ISO8601.format) == "2026-04-30T23:59:59Z")
    }

    @Test("Years before 1000 are written in four digits")
    func earlyYears() {
        #expect(ISO8601.format(Date(timeIntervalSince1970: -59_042_995_200)) == "0099-01-01T00:00:00Z")
    }
}
