import ReceiptKit
import TestSupport
import Testing

@Suite("ASN.1 reading (DER and BER) and DER writing")
struct ASN1Tests {
    @Test("DER: a SEQUENCE of an INTEGER and an OCTET STRING")
    func parsesDER() throws {
        let node = try ASN1Node(parsing: [0x30, 0x07, 0x02, 0x01, 0x05, 0x04, 0x02, 0xAA, 0xBB])
        #expect(node.tag == .sequence)
        #expect(node.children.count == 2)
        #expect(node.children[0].tag == .integer)
        #expect(node.children[0].joinedBytes == [0x05])
        #expect(node.children[1].offset == 5)
        #expect(node.children[1].joinedBytes == [0xAA, 0xBB])
    }

    @Test("BER: indefinite length is read in BER and rejected in DER with the offset")
    func indefiniteLength() throws {
        let bytes: [UInt8] = [0x30, 0x80, 0x02, 0x01, 0x05, 0x30, 0x80, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00]
        let node = try ASN1Node(parsing: bytes, rules: .ber)
        #expect(node.isIndefiniteLength)
        #expect(node.children.count == 2)
        #expect(node.children[1].children.first?.tag == .null)
        #expect(node.derEncoded() == [0x30, 0x07, 0x02, 0x01, 0x05, 0x30, 0x02, 0x05, 0x00])
        let error = try #require(throws: ReceiptError.self) { try ASN1Node(parsing: bytes, rules: .der) }
        #expect(error.code == .invalidLength)
        #expect(error.offset == 0)
    }

    @Test("BER: a constructed OCTET STRING joins its segments; DER rejects it")
    func constructedString() throws {
        let bytes: [UInt8] = [0x24, 0x80, 0x04, 0x02, 0xAA, 0xBB, 0x24, 0x03, 0x04, 0x01, 0xCC, 0x00, 0x00]
        let node = try ASN1Node(parsing: bytes, rules: .ber)
        #expect(node.joinedBytes == [0xAA, 0xBB, 0xCC])
        #expect(node.derEncoded() == [0x04, 0x03, 0xAA, 0xBB, 0xCC])
        #expect(throws: ReceiptError(.invalidTag)) { try ASN1Node(parsing: bytes, rules: .der) }
    }

    @Test("trailing bytes are rejected at their offset")
    func trailingBytes() throws {
        let error = try #require(throws: ReceiptError.self) { try ASN1Node(parsing: [0x05, 0x00, 0x00]) }
        #expect(error.code == .trailingBytes)
        #expect(error.offset == 2)
    }

    @Test("a length past the end is rejected", arguments: [ASN1EncodingRules.der, .ber])
    func lengthPastEnd(rules: ASN1EncodingRules) throws {
        let error = try #require(throws: ReceiptError.self) {
            try ASN1Node(parsing: [0x30, 0x06, 0x04, 0x05, 0x01, 0x02, 0x03, 0x04], rules: rules)
        }
        #expect(error.code == .truncated)
        #expect(error.offset == 2)
    }

    @Test("a missing end-of-contents marker is truncation")
    func missingEndOfContents() {
        #expect(throws: ReceiptError(.truncated)) { try ASN1Node(parsing: [0x30, 0x80, 0x05, 0x00], rules: .ber) }
    }

    @Test("an end-of-contents marker outside an indefinite length is rejected")
    func strayEndOfContents() {
        #expect(throws: ReceiptError(.invalidTag)) { try ASN1Node(parsing: [0x00, 0x00], rules: .ber) }
        #expect(throws: ReceiptError(.invalidTag)) {
            try ASN1Node(parsing: [0x30, 0x02, 0x00, 0x00], rules: .ber)
        }
    }

    @Test("nesting deeper than the bound is rejected, definite or indefinite", arguments: [false, true])
    func nestingBound(indefinite: Bool) throws {
        let depth = ASN1EncodingRules.maximumDepth + 2
        var bytes: [UInt8] = [0x05, 0x00]
        for _ in 0..<depth {
            bytes =
                indefinite ? [0x30, 0x80] + bytes + [0x00, 0x00] : [0x30] + DERWriterLength.of(bytes.count) + bytes
        }
        let error = try #require(throws: ReceiptError.self) { try ASN1Node(parsing: bytes, rules: .ber) }
        #expect(error.code == .nestingTooDeep)

        var shallow: [UInt8] = [0x05, 0x00]
        for _ in 0..<(ASN1EncodingRules.maximumDepth - 1) {
            shallow = [0x30, 0x80] + shallow + [0x00, 0x00]
        }
        #expect(throws: Never.self) { try ASN1Node(parsing: shallow, rules: .ber) }
    }

    @Test("DER rejects non-minimal lengths; BER accepts them")
    func nonMinimalLength() throws {
        let long: [UInt8] = [0x04, 0x81, 0x01, 0xAA]
        #expect(throws: ReceiptError(.invalidLength)) { try ASN1Node(parsing: long) }
        #expect(try ASN1Node(parsing: long, rules: .ber).joinedBytes == [0xAA])
        let padded: [UInt8] = [0x04, 0x82, 0x00, 0x01, 0xAA]
        #expect(throws: ReceiptError(.invalidLength)) { try ASN1Node(parsing: padded) }
        #expect(throws: ReceiptError(.invalidLength)) { try ASN1Node(parsing: [0x04, 0xFF]) }
    }

    @Test("multi-byte tags are read, and must be minimal")
    func highTagNumbers() throws {
        let node = try ASN1Node(parsing: [0x9F, 0x81, 0x00, 0x01, 0x2A])
        #expect(node.tag == ASN1Tag(.contextSpecific, 128, isConstructed: false))
        #expect(node.derEncoded() == [0x9F, 0x81, 0x00, 0x01, 0x2A])
        #expect(throws: ReceiptError(.invalidTag)) { try ASN1Node(parsing: [0x9F, 0x80, 0x01, 0x00]) }
        #expect(throws: ReceiptError(.invalidTag)) { try ASN1Node(parsing: [0x9F, 0x05, 0x00]) }
        #expect(throws: ReceiptError(.truncated)) { try ASN1Node(parsing: [0x9F, 0x81]) }
    }

    @Test("the test PKI's certificates parse as DER and re-encode to the same bytes")
    func pkiCertificateRoundTrip() throws {
        for name in ["root", "intermediate", "leaf"] {
            let der = try Fixtures.pkiCertificate(name).derEncoded
            #expect(try ASN1Node(parsing: der).derEncoded() == der, "\(name)")
        }
    }

    @Test("Apple's root certificate parses as DER and re-encodes to the same bytes", .requiresSharedData)
    func certificateRoundTrip() throws {
        let der = try Fixtures.appleRoot().derEncoded
        #expect(try ASN1Node(parsing: der).derEncoded() == der)
    }

    static let integerTable: [(Int64, [UInt8])] = [
        (0, [0x00]), (127, [0x7F]), (128, [0x00, 0x80]), (256, [0x01, 0x00]), (-1, [0xFF]), (-128, [0x80]),
        (-129, [0xFF, 0x7F]), (2_000_000_123_357_229, [0x07, 0x1A, 0xFD, 0x50, 0xE7, 0x48, 0x2D]),
        (Int64.max, [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
        (Int64.min, [0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]),
    ]

    @Test("INTEGER encodings are minimal two's complement", arguments: integerTable)
    func integers(value: Int64, contents: [UInt8]) {
        var writer = DERWriter()
        writer.appendInteger(value)
        #expect(writer.bytes == [0x02, UInt8(contents.count)] + contents)
    }

    @Test("lengths of 128 bytes and more use the long form")
    func longLengths() throws {
        for count in [127, 128, 255, 256, 70_000] {
            var writer = DERWriter()
            writer.appendOctetString([UInt8](repeating: 0x5A, count: count))
            #expect(writer.bytes.count == count + 1 + DERWriterLength.of(count).count)
            #expect(try ASN1Node(parsing: writer.bytes).joinedBytes.count == count)
        }
    }

    @Test("nested frames get their lengths fixed up")
    func nestedFrames() throws {
        var writer = DERWriter()
        writer.appendSequence { outer in
            outer.appendConstructed(.contextSpecific(0)) { explicit in
                explicit.appendOctetString([UInt8](repeating: 1, count: 300))
            }
            outer.appendOctetString(wrapping: { $0.appendUTF8String("inner") })
        }
        let node = try ASN1Node(parsing: writer.bytes)
        #expect(node.children[0].tag == .contextSpecific(0))
        #expect(node.children[0].children[0].joinedBytes.count == 300)
        #expect(try ASN1Node(parsing: node.children[1].joinedBytes).tag == .utf8String)
    }

    @Test("SET OF elements are sorted by their encodings")
    func setOfIsSorted() throws {
        var writer = DERWriter()
        writer.appendSetOf { set in
            set.appendInteger(300)
            set.appendUTF8String("b")
            set.appendInteger(2)
            set.appendUTF8String("a")
        }
        #expect(
            writer.bytes == [
                0x31, 0x0D, 0x02, 0x01, 0x02, 0x02, 0x02, 0x01, 0x2C, 0x0C, 0x01, 0x61, 0x0C, 0x01, 0x62,
            ])
    }

    @Test("OBJECT IDENTIFIERs are base-128 encoded")
    func objectIdentifiers() {
        var writer = DERWriter()
        writer.appendObjectIdentifier([1, 2, 840, 113_635, 100, 6, 11, 1])
        #expect(writer.bytes == [0x06, 0x0A, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x63, 0x64, 0x06, 0x0B, 0x01])
    }

    @Test("tag identifier octets and descriptions")
    func tags() {
        #expect(ASN1Tag.sequence.identifierOctets == [0x30])
        #expect(ASN1Tag.contextSpecific(0).identifierOctets == [0xA0])
        #expect(ASN1Tag(.application, 31, isConstructed: false).identifierOctets == [0x5F, 0x1F])
        #expect(ASN1Tag.octetString.description == "OCTET STRING")
        #expect(ASN1Tag.contextSpecific(1).description == "[1] constructed")
    }
}

/// DER length octets, computed independently of the writer.
enum DERWriterLength {
    static func of(_ count: Int) -> [UInt8] {
        if count < 128 { return [UInt8(count)] }
        var octets: [UInt8] = []
        var rest = count
        while rest > 0 {
            octets.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        }
        return [0x80 | UInt8(octets.count)] + octets
    }
}
