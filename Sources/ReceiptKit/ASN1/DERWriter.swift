/// Writes ASN.1 in the Distinguished Encoding Rules: definite minimal lengths, minimal integers, sorted SET OF.
///
/// ```swift
/// var writer = DERWriter()
/// writer.appendSequence { sequence in
///     sequence.appendInteger(2)
///     sequence.appendUTF8String("com.example.app")
/// }
/// let der = writer.bytes
/// ```
public struct DERWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8]

    /// Creates an empty writer.
    public init() {
        bytes = []
    }

    /// Creates an empty writer with room for `capacity` bytes.
    ///
    /// - Parameter capacity: The expected size of the output.
    public init(reservingCapacity capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    // MARK: Framing

    /// Writes an element whose contents `body` writes, then fills in the length.
    @inline(__always)
    private mutating func appendFramed<E: Error>(
        _ tag: ASN1Tag, _ body: (inout DERWriter) throws(E) -> Void
    ) throws(E) {
        appendIdentifier(tag)
        let lengthPosition = bytes.count
        bytes.append(0)
        try body(&self)
        let length = bytes.count - lengthPosition - 1
        if length < 0x80 {
            bytes[lengthPosition] = UInt8(length)
        } else {
            bytes.replaceSubrange(lengthPosition...lengthPosition, with: Self.lengthOctets(length))
        }
    }

    /// The DER length octets for a length.
    static func lengthOctets(_ length: Int) -> [UInt8] {
        var writer = DERWriter()
        writer.appendLength(length)
        return writer.bytes
    }

    /// Appends the DER length octets for a length.
    @inline(__always)
    mutating func appendLength(_ length: Int) {
        if length < 0x80 {
            bytes.append(UInt8(length))
            return
        }
        var count = 1
        while count < 8 && length >> (8 * count) != 0 { count += 1 }
        bytes.append(0x80 | UInt8(count))
        for index in stride(from: count - 1, through: 0, by: -1) {
            bytes.append(UInt8(truncatingIfNeeded: length >> (8 * index)))
        }
    }

    /// Appends the identifier octets of a tag.
    @inline(__always)
    mutating func appendIdentifier(_ tag: ASN1Tag) {
        if tag.number < 31 {
            bytes.append(tag.tagClass.rawValue << 6 | (tag.isConstructed ? 0x20 : 0) | UInt8(tag.number))
        } else {
            bytes.append(contentsOf: tag.identifierOctets)
        }
    }

    /// Writes a primitive element.
    ///
    /// - Parameters:
    ///   - tag: The tag; its `isConstructed` should be false.
    ///   - contents: The content bytes.
    public mutating func appendPrimitive(_ tag: ASN1Tag, contents: some Collection<UInt8>) {
        appendIdentifier(tag)
        appendLength(contents.count)
        bytes.append(contentsOf: contents)
    }

    /// Writes a constructed element whose contents `body` writes.
    ///
    /// - Parameters:
    ///   - tag: The tag, for example ``ASN1Tag/contextSpecific(_:isConstructed:)`` for an EXPLICIT `[0]`.
    ///   - body: Writes the contents.
    public mutating func appendConstructed<E: Error>(
        _ tag: ASN1Tag, _ body: (inout DERWriter) throws(E) -> Void
    ) throws(E) {
        var identifier = tag
        identifier.isConstructed = true
        try appendFramed(identifier, body)
    }

    /// Writes a SEQUENCE whose elements `body` writes, in order.
    ///
    /// - Parameter body: Writes the elements.
    public mutating func appendSequence<E: Error>(_ body: (inout DERWriter) throws(E) -> Void) throws(E) {
        try appendFramed(.sequence, body)
    }

    /// Writes a SET OF whose elements `body` writes; the elements are sorted by their encodings, as DER requires.
    ///
    /// - Parameter body: Writes the elements, in any order.
    public mutating func appendSetOf<E: Error>(_ body: (inout DERWriter) throws(E) -> Void) throws(E) {
        let start = bytes.count
        try appendFramed(.set, body)
        // Find the header end, split the contents into elements, sort them.
        let contentStart = start + 1 + (bytes[start + 1] < 0x80 ? 1 : 1 + Int(bytes[start + 1] & 0x7F))
        var elements: [Range<Int>] = []
        var position = contentStart
        while position < bytes.count {
            let end = Self.endOfElement(bytes, at: position)
            elements.append(position..<end)
            position = end
        }
        guard elements.count > 1 else { return }
        let sorted = elements.sorted { bytes[$0].lexicographicallyPrecedes(bytes[$1]) }
        guard sorted != elements else { return }
        var content: [UInt8] = []
        content.reserveCapacity(bytes.count - contentStart)
        for range in sorted { content.append(contentsOf: bytes[range]) }
        bytes.replaceSubrange(contentStart..<bytes.count, with: content)
    }

    /// The end of an element this writer wrote (definite length, well formed).
    private static func endOfElement(_ bytes: [UInt8], at start: Int) -> Int {
        var position = start + 1
        if bytes[start] & 0x1F == 0x1F {
            while bytes[position] & 0x80 != 0 { position += 1 }
            position += 1
        }
        let first = bytes[position]
        position += 1
        var length = Int(first)
        if first >= 0x80 {
            length = 0
            for _ in 0..<Int(first & 0x7F) {
                length = length << 8 | Int(bytes[position])
                position += 1
            }
        }
        return position + length
    }

    // MARK: Values

    /// Writes an INTEGER.
    ///
    /// - Parameter value: The value, encoded in the fewest two's complement octets.
    public mutating func appendInteger(_ value: Int64) {
        // The fewest octets whose sign bit matches the value's sign.
        var count = 1
        while count < 8 {
            let rest = value >> (8 * count - 1)
            if rest == 0 || rest == -1 { break }
            count += 1
        }
        bytes.append(0x02)
        bytes.append(UInt8(count))
        for index in stride(from: count - 1, through: 0, by: -1) {
            bytes.append(UInt8(truncatingIfNeeded: value >> (8 * index)))
        }
    }

    /// Writes a non-negative INTEGER given as big-endian magnitude bytes (for example a certificate serial number).
    ///
    /// - Parameter magnitude: The magnitude, most significant byte first; leading zeros are dropped.
    public mutating func appendInteger(bigEndianMagnitude magnitude: [UInt8]) {
        var digits = magnitude.drop { $0 == 0 }
        if digits.isEmpty { digits = [0] }
        if digits.first! & 0x80 != 0 {
            appendPrimitive(.integer, contents: [0] + Array(digits))
        } else {
            appendPrimitive(.integer, contents: digits)
        }
    }

    /// Writes an OCTET STRING.
    ///
    /// - Parameter contents: The bytes.
    public mutating func appendOctetString(_ contents: some Collection<UInt8>) {
        appendPrimitive(.octetString, contents: contents)
    }

    /// Writes an OCTET STRING whose contents are the DER that `body` writes (a receipt attribute value).
    ///
    /// - Parameter body: Writes the contents.
    public mutating func appendOctetString<E: Error>(wrapping body: (inout DERWriter) throws(E) -> Void) throws(E) {
        try appendFramed(.octetString, body)
    }

    /// Writes a UTF8String.
    ///
    /// - Parameter value: The string.
    public mutating func appendUTF8String(_ value: String) {
        appendPrimitive(.utf8String, contents: value.utf8)
    }

    /// Writes an IA5String. The caller keeps `value` to ASCII.
    ///
    /// - Parameter value: The string.
    public mutating func appendIA5String(_ value: String) {
        appendPrimitive(.ia5String, contents: value.utf8)
    }

    /// Writes NULL.
    public mutating func appendNull() {
        bytes.append(contentsOf: [0x05, 0x00])
    }

    /// Writes an OBJECT IDENTIFIER.
    ///
    /// - Parameter components: The arcs, for example `[1, 2, 840, 113549, 1, 7, 2]`; at least two, the first
    ///   0, 1 or 2.
    public mutating func appendObjectIdentifier(_ components: [UInt64]) {
        precondition(components.count >= 2 && components[0] <= 2, "an OID has at least two arcs, the first 0...2")
        var contents: [UInt8] = []
        let arcs = [components[0] * 40 + components[1]] + components.dropFirst(2)
        for arc in arcs {
            var groups: [UInt8] = [UInt8(arc & 0x7F)]
            var rest = arc >> 7
            while rest > 0 {
                groups.append(UInt8(rest & 0x7F) | 0x80)
                rest >>= 7
            }
            contents.append(contentsOf: groups.reversed())
        }
        appendPrimitive(.objectIdentifier, contents: contents)
    }

    /// Appends bytes that already hold one or more complete DER elements (for example a certificate).
    ///
    /// - Parameter encoded: The encoded elements.
    public mutating func appendEncoded(_ encoded: some Collection<UInt8>) {
        bytes.append(contentsOf: encoded)
    }
}
