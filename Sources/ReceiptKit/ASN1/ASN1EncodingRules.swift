/// Which ASN.1 encoding rules a reader accepts.
public enum ASN1EncodingRules: Sendable, Hashable {
    /// Distinguished Encoding Rules: definite, minimal lengths and primitive strings only.
    case der
    /// Basic Encoding Rules: also indefinite lengths (`30 80 ... 00 00`) and strings built from segments,
    /// as in receipts made by Xcode.
    case ber

    /// The deepest nesting any reader accepts. Deeper input fails with ``ReceiptError/Code/nestingTooDeep``.
    ///
    /// A receipt needs about 12 levels; the bound keeps hostile input from exhausting the stack.
    public static let maximumDepth = 48
}
