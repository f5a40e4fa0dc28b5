import Foundation
import StoreModels
import Testing

@Suite("UTC calendar fields and their text")
struct UTCDateTimeTests {
    @Test(
        "Instants have the fields and text a calendar gives them",
        arguments: [
            (Int64(0), "1970-01-01T00:00:00Z"), (1_594_755_400_686, "2020-07-14T19:36:40.686Z"),
            (-1, "1969-12-31T23:59:59.999Z"), (1_709_164_800_000, "2024-02-29T00:00:00Z"),
            (253_402_300_799_999, "9999-12-31T23:59:59.999Z"), (253_402_300_800_000, "10000-01-01T00:00:00Z"),
            (-62_167_219_200_000, "0000-01-01T00:00:00Z"), (-62_198_755_200_000, "-0001-01-01T00:00:00Z"),
            (-59_042_995_200_000, "0099-01-01T00:00:00Z"),
        ])
    func fields(milliseconds: Int64, text: String) {
        #expect(UTCDateTime(millisecondsSince1970: milliseconds).text(milliseconds: true) == text)
    }

    @Test("Separator, milliseconds and zone are chosen by the caller")
    func forms() {
        let instant = UTCDateTime(millisecondsSince1970: 1_595_439_548_250)
        #expect(instant.text() == "2020-07-22T17:39:08Z")
        #expect(instant.description == "2020-07-22T17:39:08Z")
        #expect(instant.text(separator: " ", zone: " Etc/GMT") == "2020-07-22 17:39:08 Etc/GMT")
        #expect(instant.text(milliseconds: true, zone: "") == "2020-07-22T17:39:08.250")
        #expect(UTCDateTime(secondsSince1970: 1_595_439_548).text(milliseconds: true) == "2020-07-22T17:39:08Z")
    }

    @Test("Dates far out, at the ends of Int64 or not a number never trap")
    func bounds() {
        #expect(UTCDateTime(Date(timeIntervalSince1970: .nan)).text() == "1970-01-01T00:00:00Z")
        #expect(UTCDateTime(Date(timeIntervalSince1970: .infinity)) == UTCDateTime(Date(timeIntervalSince1970: 2e15)))
        #expect(UTCDateTime(Date(timeIntervalSince1970: -8.64e19)) == UTCDateTime(secondsSince1970: -1e15.int64))
        #expect(UTCDateTime(Date(timeIntervalSince1970: 8.64e19)).year == 31_690_708)
        #expect(UTCDateTime(millisecondsSince1970: .max).text().hasSuffix("Z"))
        #expect(UTCDateTime(millisecondsSince1970: .min).text().hasPrefix("-"))
        #expect(UTCDateTime(secondsSince1970: .max).text().hasSuffix("Z"))
        #expect(UTCDateTime(secondsSince1970: .min).text().hasPrefix("-"))
    }

    @Test("A date's time below the millisecond is dropped, rounding down")
    func dropsFraction() {
        #expect(UTCDateTime(Date(timeIntervalSince1970: 1.9999)).text(milliseconds: true) == "1970-01-01T00:00:01.999Z")
        #expect(UTCDateTime(Date(timeIntervalSince1970: -0.25)).text(milliseconds: true) == "1969-12-31T23:59:59.750Z")
    }

    @Test("Day counts and dates round-trip across four centuries, leap days included")
    func arithmetic() {
        for days in stride(from: Int64(-800_000), through: 800_000, by: 97) {
            let date = UTCDateTime.civilDate(daysSince1970: days)
            #expect(date.day <= UTCDateTime.daysInMonth(year: date.year, month: date.month))
            #expect(UTCDateTime.daysSince1970(year: date.year, month: date.month, day: date.day) == days)
        }
        #expect(UTCDateTime.daysInMonth(year: 2000, month: 2) == 29)
        #expect(UTCDateTime.daysInMonth(year: 1900, month: 2) == 28)
        #expect(UTCDateTime.daysInMonth(year: 2024, month: 4) == 30)
        #expect(!UTCDateTime.isLeapYear(2100))
    }
}

extension Double {
    fileprivate var int64: Int64 { Int64(self) }
}
