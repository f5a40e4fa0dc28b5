/// A payload attribute that ReceiptKit does not interpret, kept as it was found.
///
/// Apple reserves undocumented types (for example 0 and 1, 6 to 11, 13 to 16, 1709, 1710) and asks that they be
/// ignored; they are kept so that a receipt re-encodes with them.
public struct ReceiptAttribute: Sendable, Hashable {
    /// The attribute type number.
    public var type: Int
    /// The attribute version (1 in almost every receipt).
    public var version: Int
    /// The raw bytes of the attribute's OCTET STRING value (often a DER element, sometimes opaque bytes).
    public var value: [UInt8]

    /// Creates an attribute.
    ///
    /// - Parameters:
    ///   - type: The attribute type number.
    ///   - version: The attribute version.
    ///   - value: The raw value bytes.
    public init(type: Int, version: Int = 1, value: [UInt8]) {
        self.type = type
        self.version = version
        self.value = value
    }

    /// Orders attributes by type, version and value, so that parsed receipts compare equal after re-encoding.
    static func precedes(_ lhs: ReceiptAttribute, _ rhs: ReceiptAttribute) -> Bool {
        if lhs.type != rhs.type { return lhs.type < rhs.type }
        if lhs.version != rhs.version { return lhs.version < rhs.version }
        return lhs.value.lexicographicallyPrecedes(rhs.value)
    }
}
