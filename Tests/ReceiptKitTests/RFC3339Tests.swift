import Testing

@testable import ReceiptKit

@Suite("RFC 3339 dates, parsed by hand")
struct RFC3339Tests {
    static func parse(_ text: String) -> RFC3339.Result {
        Array(text.utf8).withUnsafeBytes { RFC3339.parse($0) }
    }

    @Test(
        "every form seen in receipts",
        arguments: [
            ("2020-07-14T19:36:40Z", Int64(1_594_755_400_000)),
            ("2020-07-14T19:36:40.686Z", 1_594_755_400_686),
            ("2020-07-14T19:36:40.6Z", 1_594_755_400_600),
            ("2020-07-14T19:36:40.123456789Z", 1_594_755_400_123),
            ("2020-10-16T14:29:30+0300", 1_602_847_770_000),
            ("2020-10-16T14:29:30+03:00", 1_602_847_770_000),
            ("2020-10-16T06:29:30-05:00", 1_602_847_770_000),
            ("2020-10-16T11:29:30z", 1_602_847_770_000),
            ("4001-01-01T02:00:00+0200", 64_092_211_200_000),
            ("1969-12-31T23:59:59Z", -1000),
            ("2024-02-29T00:00:00Z", 1_709_164_800_000),
        ])
    func parsesForm(text: String, milliseconds: Int64) {
        #expect(Self.parse(text) == .milliseconds(milliseconds))
    }

    @Test("the empty string means absent")
    func emptyIsAbsent() {
        #expect(Self.parse("") == .empty)
    }

    @Test(
        "malformed dates are rejected with a reason",
        arguments: [
            "2020-13-01T00:00:00Z", "2021-02-29T00:00:00Z", "2020-04-31T00:00:00Z", "2020-07-14T24:00:00Z",
            "2020-07-14T19:36:40", "2020-07-14 19:36", "20200714T193640Z", "2020-07-14T19:36:40ZZ",
            "2020-07-14T19:36:40.Z", "2020-07-14T19:36:40+3", "2020-07-14T19:36:40+03:0", "2020-07-14T19:36:40+2400",
            "0000-01-01T00:00:00+01:00", "not a date at all", "2020-07-14T19:36:4a",
        ])
    func rejects(text: String) {
        guard case .invalid(let reason) = Self.parse(text) else {
            Issue.record("\(text) should be rejected")
            return
        }
        #expect(!reason.isEmpty)
    }

    @Test("formatting gives RFC 3339 in UTC, with milliseconds only when present")
    func formats() {
        #expect(RFC3339.format(milliseconds: 1_594_755_400_000) == "2020-07-14T19:36:40Z")
        #expect(RFC3339.format(milliseconds: 1_594_755_400_686) == "2020-07-14T19:36:40.686Z")
        #expect(RFC3339.format(milliseconds: 1_594_755_400_007) == "2020-07-14T19:36:40.007Z")
        #expect(RFC3339.format(milliseconds: -1000) == "1969-12-31T23:59:59Z")
        #expect(RFC3339.formatAppleJSON(milliseconds: 1_595_439_548_000) == "2020-07-22 17:39:08 Etc/GMT")
    }

    @Test("formatting and parsing round-trip across four centuries")
    func roundTrips() {
        var milliseconds: Int64 = -2_208_988_800_000  // 1900-01-01
        while milliseconds < 32_503_680_000_000 {  // 3000-01-01
            #expect(Self.parse(RFC3339.format(milliseconds: milliseconds)) == .milliseconds(milliseconds))
            milliseconds += 7_777_777_777_777 / 997  // about 90 days and an odd number of milliseconds
        }
    }
}
