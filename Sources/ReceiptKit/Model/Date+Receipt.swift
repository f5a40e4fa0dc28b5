public import Foundation

extension Date {
    /// The instant `milliseconds` after 1970-01-01T00:00:00Z, the precision receipts carry.
    ///
    /// - Parameter milliseconds: Milliseconds since 1970.
    public init(receiptMilliseconds milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// This instant in whole milliseconds since 1970, rounded to the nearest millisecond.
    public var receiptMilliseconds: Int64 {
        let value = (timeIntervalSince1970 * 1000).rounded()
        guard value.isFinite else { return value > 0 ? Int64.max : Int64.min }
        return Int64(max(min(value, 9.2e18), -9.2e18))
    }
}
