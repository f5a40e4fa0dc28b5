/// The `receipt.parse` baseline: a walk over a receipt payload that visits what a parser must visit and decodes
/// nothing. It reads the header of every attribute `SEQUENCE { INTEGER type, INTEGER version, OCTET STRING value }` in
/// the payload's `SET`, and of every in-app purchase's attributes inside attribute 17, and the header of each value
/// inside its `OCTET STRING` when it holds one (types 4 and 5, and some undocumented ones, hold raw bytes), folding
/// tags and lengths into a checksum.
///
/// Its cost is the floor of any DER reader on that payload; what a parser spends beyond it goes into turning values
/// into strings, dates and integers and into building the receipt.
struct DERWalkBaseline {
    /// The payload walked.
    let payload: [UInt8]

    /// Walks the payload once; returns the checksum, or `nil` if the payload is not a receipt `SET`.
    func walk() -> (attributes: Int, checksum: Int)? {
        payload.withUnsafeBytes { bytes -> (Int, Int)? in
            var attributes = 0
            var checksum = 0
            guard let outer = Self.header(bytes, at: 0), outer.tag == 0x31 else { return nil }
            guard Self.walkSet(bytes, outer.content, &attributes, &checksum) else { return nil }
            return (attributes, checksum)
        }
    }

    /// Walks the attribute sequences in `range`.
    private static func walkSet(
        _ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, _ attributes: inout Int, _ checksum: inout Int
    ) -> Bool {
        var offset = range.lowerBound
        while offset < range.upperBound {
            guard let sequence = header(bytes, at: offset), sequence.tag == 0x30,
                let type = header(bytes, at: sequence.content.lowerBound), type.tag == 0x02,
                let version = header(bytes, at: type.content.upperBound), version.tag == 0x02,
                let value = header(bytes, at: version.content.upperBound), value.tag == 0x04
            else { return false }
            var typeNumber = 0
            for index in type.content { typeNumber = typeNumber << 8 | Int(bytes[index]) }
            attributes += 1
            checksum &+= typeNumber &* 31 &+ value.content.count
            if typeNumber == 17 {
                guard let inner = header(bytes, at: value.content.lowerBound), inner.tag == 0x31,
                    inner.content.upperBound == value.content.upperBound,
                    walkSet(bytes, inner.content, &attributes, &checksum)
                else { return false }
            } else if typeNumber != 4 && typeNumber != 5, !value.content.isEmpty,
                let inner = header(bytes, at: value.content.lowerBound),
                inner.content.upperBound == value.content.upperBound
            {
                checksum &+= Int(inner.tag) &+ inner.content.count
            }
            offset = sequence.content.upperBound
        }
        return offset == range.upperBound
    }

    /// Reads a DER tag (one byte) and length at `offset`; returns the tag and the range of the contents.
    @inline(__always)
    private static func header(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> (tag: UInt8, content: Range<Int>)? {
        guard offset + 2 <= bytes.count else { return nil }
        let tag = bytes[offset]
        var length = Int(bytes[offset + 1])
        var start = offset + 2
        if length >= 0x80 {
            let count = length & 0x7F
            guard count >= 1, count <= 4, start + count <= bytes.count else { return nil }
            length = 0
            for index in start..<(start + count) { length = length << 8 | Int(bytes[index]) }
            start += count
        }
        guard start + length <= bytes.count else { return nil }
        return (tag, start..<(start + length))
    }
}
