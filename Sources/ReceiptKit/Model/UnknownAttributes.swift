/// Attributes ReceiptKit does not interpret, stored compactly: their DER encodings back to back, in a canonical
/// order (type, then version, then value), so that equal sets of attributes compare equal.
///
/// A real App Store receipt carries about eight undocumented attributes per purchase; one buffer instead of one
/// array per attribute keeps parsing fast.
struct UnknownAttributes: Hashable, Sendable {
    /// DER `SEQUENCE { INTEGER type, INTEGER version, OCTET STRING value }` elements, sorted.
    private(set) var encoded: [UInt8]

    /// No attributes.
    static let empty = UnknownAttributes(encoded: [])

    private init(encoded: [UInt8]) {
        self.encoded = encoded
    }

    /// Stores attributes, sorting them.
    init(_ attributes: [ReceiptAttribute]) {
        var writer = DERWriter()
        for attribute in attributes.sorted(by: ReceiptAttribute.precedes) {
            writer.appendAttribute(attribute.type, version: attribute.version, raw: attribute.value)
        }
        encoded = writer.bytes
    }

    /// The attributes, decoded from the compact form.
    var attributes: [ReceiptAttribute] {
        guard !encoded.isEmpty else { return [] }
        let result: [ReceiptAttribute]? = try? withBytes(encoded) { (raw) throws(ReceiptError) -> [ReceiptAttribute] in
            let scanner = BERScanner(raw, rules: .der)
            var attributes: [ReceiptAttribute] = []
            var position = 0
            while position < raw.count {
                let attribute = try PayloadParser.attribute(scanner, at: position, limit: raw.count, depth: 0)
                attributes.append(
                    ReceiptAttribute(
                        type: attribute.type, version: attribute.version, value: scanner.copy(attribute.value.content)))
                position = attribute.end
            }
            return attributes
        }
        return result ?? []
    }

    /// Whether there are no attributes.
    var isEmpty: Bool { encoded.isEmpty }

    /// One attribute found while parsing; its value is still in the scanned buffer (or joined from BER segments).
    struct Entry {
        var type: Int
        var version: Int
        var value: ContentBytes
    }

    /// Stores the entries found while parsing, whose values are in `scanner`'s buffer, and empties `entries`.
    init(taking entries: inout [Entry], from scanner: BERScanner) {
        guard !entries.isEmpty else {
            self.encoded = []
            return
        }
        func precedes(_ lhs: Entry, _ rhs: Entry) -> Bool {
            if lhs.type != rhs.type { return lhs.type < rhs.type }
            if lhs.version != rhs.version { return lhs.version < rhs.version }
            return Self.withValue(lhs, scanner) { a in
                Self.withValue(rhs, scanner) { b in a.lexicographicallyPrecedes(b) }
            }
        }
        for index in 1..<max(entries.count, 1) where precedes(entries[index], entries[index - 1]) {
            entries.sort(by: precedes)
            break
        }
        var writer = DERWriter(reservingCapacity: entries.count * 16)
        for entry in entries {
            Self.withValue(entry, scanner) { bytes in
                writer.appendSequence { sequence in
                    sequence.appendInteger(Int64(entry.type))
                    sequence.appendInteger(Int64(entry.version))
                    sequence.appendOctetString(bytes)
                }
            }
        }
        entries.removeAll(keepingCapacity: true)
        self.encoded = writer.bytes
    }

    private static func withValue<R>(_ entry: Entry, _ scanner: BERScanner, _ body: (UnsafeRawBufferPointer) -> R) -> R
    {
        switch entry.value {
        case .range(let range): return body(UnsafeRawBufferPointer(rebasing: scanner.bytes[range]))
        case .joined(let joined): return joined.withUnsafeBytes(body)
        }
    }
}
