import Foundation
import Testing

@testable import OpenStoreKit2

@Suite("Prices from the JWS's milli-units")
struct PriceUnitsTests {
    @Test("A price is exactly the Decimal of milli-units over 1000: equal, same text, same bits")
    func sameAsDivision() {
        var values = (-2_000...20_000).map(Int64.init)
        values += [0, 990, 4_990, 39_990, 1_000_000, 9_999_999_999, 123_456_789_012_345, .max, .min + 1]
        let mismatches = values.filter { milliUnits in
            let expected = Decimal(milliUnits) / 1000
            let made = Transaction.units(fromMilliUnits: milliUnits)
            return made != expected || made.description != expected.description
                || withUnsafeBytes(of: made, Array.init) != withUnsafeBytes(of: expected, Array.init)
        }
        #expect(mismatches.isEmpty)
    }
}
