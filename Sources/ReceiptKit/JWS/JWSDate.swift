public import Foundation

/// A date in a JWS payload: milliseconds since 1970 as a JSON number.
///
/// The App Store writes whole milliseconds; Xcode writes fractional ones (`1697679936049.7297`), which decode
/// truncated to whole milliseconds, as Apple's libraries compare them. Encoding always writes whole milliseconds.
public struct JWSDate: Codable, Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public var millisecondsSince1970: Int64

    /// Creates a date from milliseconds since 1970.
    ///
    /// - Parameter millisecondsSince1970: The milliseconds.
    public init(millisecondsSince1970: Int64) {
        self.millisecondsSince1970 = millisecondsSince1970
    }

    /// Creates a date from a `Date`, truncated to whole milliseconds.
    ///
    /// - Parameter date: The date.
    public init(_ date: Date) {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.towardZero)
        self.millisecondsSince1970 = Self.clamped(milliseconds)
    }

    /// The date as a `Date`.
    public var date: Date {
        Date(timeIntervalSince1970: Double(millisecondsSince1970) / 1000)
    }

    /// Decodes a JSON number of milliseconds, whole or fractional.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` if the value is not a finite number in range.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let whole = try? container.decode(Int64.self) {
            millisecondsSince1970 = whole
            return
        }
        let value = try container.decode(Double.self)
        guard value.isFinite, abs(value) < 9.0e15 else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "a date in milliseconds must be a finite number, not \(value)")
        }
        millisecondsSince1970 = Int64(value.rounded(.towardZero))
    }

    /// Encodes whole milliseconds.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: Whatever the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(millisecondsSince1970)
    }

    /// Earlier dates are smaller.
    public static func < (lhs: JWSDate, rhs: JWSDate) -> Bool {
        lhs.millisecondsSince1970 < rhs.millisecondsSince1970
    }

    /// The milliseconds.
    public var description: String {
        String(millisecondsSince1970)
    }

    static func clamped(_ milliseconds: Double) -> Int64 {
        guard milliseconds.isFinite else { return 0 }
        return Int64(max(min(milliseconds, 9.0e15), -9.0e15))
    }
}
