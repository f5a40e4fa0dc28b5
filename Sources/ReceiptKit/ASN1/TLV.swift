/// One element found in a buffer: where its header, contents and end are. Internal, allocation-free.
struct TLV {
    /// The first identifier octet (class, constructed bit, low tag number or 0x1F).
    var identifier: UInt8
    /// The tag number.
    var number: UInt32
    /// The offset of the identifier octet.
    var offset: Int
    /// The offset of the first content byte.
    var contentStart: Int
    /// The offset just past the last content byte (for indefinite lengths, the offset of the end-of-contents marker).
    var contentEnd: Int
    /// The offset just past the element (after the end-of-contents marker for indefinite lengths).
    var end: Int

    /// Whether the element is constructed.
    var isConstructed: Bool { identifier & 0x20 != 0 }
    /// Whether the element used the indefinite length form.
    var isIndefinite: Bool { end != contentEnd }
    /// The content bytes' range.
    var content: Range<Int> { contentStart..<contentEnd }
    /// The whole element's range.
    var range: Range<Int> { offset..<end }
    /// The content length.
    var contentCount: Int { contentEnd - contentStart }
    /// The tag.
    var tag: ASN1Tag { ASN1Tag(identifier: identifier, number: number) }
    /// The identifier with the constructed bit cleared, for comparing universal types in either form.
    var primitiveIdentifier: UInt8 { identifier & ~0x20 }
}
