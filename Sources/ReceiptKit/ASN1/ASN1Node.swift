/// A fully parsed ASN.1 element: a general-purpose tree for inspecting DER or BER input.
///
/// Parsing checks the whole input: every length, every nested element, trailing bytes and the nesting depth.
/// Receipt parsing does not build this tree; it walks the bytes directly, which is much faster.
public struct ASN1Node: Sendable, Hashable {
    /// What an element holds.
    public enum Content: Sendable, Hashable {
        /// The bytes of a primitive element.
        case primitive([UInt8])
        /// The elements of a constructed element, in order.
        case constructed([ASN1Node])
    }

    /// The element's tag.
    public var tag: ASN1Tag
    /// The element's contents.
    public var content: Content
    /// The offset of the element's first byte in the parsed input (0 for nodes built in code).
    public var offset: Int
    /// Whether the element used the indefinite length form (BER only).
    public var isIndefiniteLength: Bool

    /// Creates a node.
    ///
    /// - Parameters:
    ///   - tag: The tag.
    ///   - content: The contents.
    public init(tag: ASN1Tag, content: Content) {
        self.tag = tag
        self.content = content
        self.offset = 0
        self.isIndefiniteLength = false
    }

    /// Parses one element that must fill `bytes` exactly.
    ///
    /// - Parameters:
    ///   - bytes: The encoded element.
    ///   - rules: ``ASN1EncodingRules/der`` (the default) or ``ASN1EncodingRules/ber``.
    /// - Throws: ``ReceiptError`` with the byte offset of the problem: ``ReceiptError/Code/truncated``,
    ///   ``ReceiptError/Code/trailingBytes``, ``ReceiptError/Code/nestingTooDeep``,
    ///   ``ReceiptError/Code/invalidLength`` or ``ReceiptError/Code/invalidTag``.
    public init(parsing bytes: [UInt8], rules: ASN1EncodingRules = .der) throws(ReceiptError) {
        self = try withBytes(bytes) { (raw) throws(ReceiptError) -> ASN1Node in
            let scanner = BERScanner(raw, rules: rules)
            return try Self.build(scanner, scanner.single(in: 0..<raw.count), depth: 0)
        }
    }

    private static func build(_ scanner: BERScanner, _ element: TLV, depth: Int) throws(ReceiptError) -> ASN1Node {
        var node = ASN1Node(tag: element.tag, content: .primitive([]))
        node.offset = element.offset
        node.isIndefiniteLength = element.isIndefinite
        if element.isConstructed {
            var children: [ASN1Node] = []
            try scanner.forEachChild(of: element, depth: depth) { (child) throws(ReceiptError) in
                children.append(try build(scanner, child, depth: depth + 1))
            }
            node.content = .constructed(children)
        } else {
            node.content = .primitive(scanner.copy(element.content))
        }
        return node
    }

    /// The children of a constructed node; empty for a primitive one.
    public var children: [ASN1Node] {
        if case .constructed(let children) = content { return children }
        return []
    }

    /// The bytes of a primitive node, or the joined bytes of a string built from segments (BER).
    public var joinedBytes: [UInt8] {
        switch content {
        case .primitive(let bytes): return bytes
        case .constructed(let children): return children.flatMap(\.joinedBytes)
        }
    }

    /// The node in DER: definite lengths, and strings built from segments joined into one primitive string.
    ///
    /// SET OF elements keep their order; a tree parsed from DER re-encodes to the same bytes.
    public func derEncoded() -> [UInt8] {
        var writer = DERWriter()
        write(to: &writer)
        return writer.bytes
    }

    private func write(to writer: inout DERWriter) {
        switch content {
        case .primitive(let bytes):
            writer.appendPrimitive(tag, contents: bytes)
        case .constructed(let children):
            if tag.isUniversalStringType {
                var primitive = tag
                primitive.isConstructed = false
                writer.appendPrimitive(primitive, contents: joinedBytes)
            } else {
                writer.appendConstructed(tag) { inner in
                    for child in children { child.write(to: &inner) }
                }
            }
        }
    }
}
