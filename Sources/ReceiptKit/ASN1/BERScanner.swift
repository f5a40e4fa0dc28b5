import Foundation

/// Reads ASN.1 elements from a buffer without allocating: the core of every parser in ReceiptKit.
///
/// Offsets are absolute in `bytes`, so errors name the byte offset in the caller's input. The scanner reads one
/// element at a time; constructed contents are checked when they are walked (``forEachChild(of:depth:_:)``), and
/// an indefinite-length element is scanned to its end-of-contents marker when it is read.
struct BERScanner {
    /// The whole input.
    let bytes: UnsafeRawBufferPointer
    /// The accepted rules.
    let rules: ASN1EncodingRules
    /// Added to offsets in errors (used when `bytes` is a copy of a part of the caller's input).
    let reportedBase: Int
    /// A phrase naming what is being read, used in error details ("in the payload").
    let context: String

    init(_ bytes: UnsafeRawBufferPointer, rules: ASN1EncodingRules, reportedBase: Int = 0, context: String = "") {
        self.bytes = bytes
        self.rules = rules
        self.reportedBase = reportedBase
        self.context = context
    }

    /// Builds an error at an offset of this buffer.
    func error(_ code: ReceiptError.Code, _ detail: String, at offset: Int) -> ReceiptError {
        ReceiptError(code, context.isEmpty ? detail : detail + " " + context, offset: reportedBase + offset)
    }

    /// Reads the element that starts at `offset` and must end at or before `limit`.
    ///
    /// - Parameters:
    ///   - offset: Where the identifier octet is.
    ///   - limit: The end of the enclosing contents (or of the input).
    ///   - depth: The nesting depth of this element (0 for the outermost).
    func element(at offset: Int, limit: Int, depth: Int) throws(ReceiptError) -> TLV {
        if depth > ASN1EncodingRules.maximumDepth {
            throw error(
                .nestingTooDeep, "elements nested deeper than \(ASN1EncodingRules.maximumDepth) levels", at: offset)
        }
        guard offset < limit else {
            throw error(.truncated, "input ends where an element should start", at: offset)
        }
        let identifier = bytes[offset]
        var position = offset + 1
        var number = UInt32(identifier & 0x1F)
        if number == 0x1F {
            number = 0
            var groups = 0
            while true {
                guard position < limit else {
                    throw error(.truncated, "input ends inside a multi-byte tag", at: offset)
                }
                let octet = bytes[position]
                position += 1
                if groups == 0 && octet == 0x80 {
                    throw error(.invalidTag, "multi-byte tag number has a leading zero group", at: offset)
                }
                groups += 1
                if groups > 4 {
                    throw error(.invalidTag, "tag number does not fit in 28 bits", at: offset)
                }
                number = number << 7 | UInt32(octet & 0x7F)
                if octet & 0x80 == 0 { break }
            }
            if number < 31 && rules == .der {
                throw error(.invalidTag, "tag number \(number) must use the one-byte form in DER", at: offset)
            }
        } else if identifier == 0 {
            throw error(.invalidTag, "end-of-contents marker where no indefinite length is open", at: offset)
        }
        let constructed = identifier & 0x20 != 0
        if rules == .der && constructed && identifier >> 6 == 0 {
            switch number {
            case 3, 4, 12, 18...22, 25...30:
                throw error(.invalidTag, "constructed string encoding is not allowed in DER", at: offset)
            default: break
            }
        }
        guard position < limit else {
            throw error(.truncated, "input ends before the length of an element", at: offset)
        }
        let first = bytes[position]
        position += 1
        var length: Int
        if first < 0x80 {
            length = Int(first)
        } else if first == 0x80 {
            guard rules == .ber else {
                throw error(.invalidLength, "indefinite length is not allowed in DER", at: offset)
            }
            guard constructed else {
                throw error(.invalidLength, "indefinite length on a primitive element", at: offset)
            }
            var cursor = position
            while true {
                guard limit - cursor >= 2 else {
                    throw error(.truncated, "input ends before the end-of-contents marker", at: offset)
                }
                if bytes[cursor] == 0 && bytes[cursor + 1] == 0 {
                    return TLV(
                        identifier: identifier, number: number, offset: offset, contentStart: position,
                        contentEnd: cursor, end: cursor + 2)
                }
                cursor = try element(at: cursor, limit: limit, depth: depth + 1).end
            }
        } else if first == 0xFF {
            throw error(.invalidLength, "length octet 0xFF is reserved", at: offset)
        } else {
            let count = Int(first & 0x7F)
            guard count <= 7 else {
                throw error(.invalidLength, "length uses \(count) octets; at most 7 are supported", at: offset)
            }
            guard limit - position >= count else {
                throw error(.truncated, "input ends inside the length of an element", at: offset)
            }
            length = 0
            for index in 0..<count {
                length = length << 8 | Int(bytes[position + index])
            }
            if rules == .der {
                if bytes[position] == 0 {
                    throw error(.invalidLength, "length has a leading zero octet (not minimal DER)", at: offset)
                }
                if length < 0x80 {
                    throw error(.invalidLength, "length \(length) must use the short form in DER", at: offset)
                }
            }
            position += count
        }
        guard length <= limit - position else {
            if limit < bytes.count && length <= bytes.count - position {
                throw error(
                    .lengthExceedsParent,
                    "length \(length) runs past the element that contains it: only \(limit - position) bytes remain in it",
                    at: offset)
            }
            throw error(
                .truncated, "length \(length) runs past the end: only \(limit - position) bytes remain", at: offset)
        }
        if identifier == 0x05 && length != 0 {
            throw error(.invalidLength, "NULL with \(length) content bytes; a NULL has none", at: offset)
        }
        return TLV(
            identifier: identifier, number: number, offset: offset, contentStart: position,
            contentEnd: position + length, end: position + length)
    }

    /// Reads the only element of `range`, which must fill it exactly.
    func single(in range: Range<Int>, depth: Int = 0) throws(ReceiptError) -> TLV {
        let element = try element(at: range.lowerBound, limit: range.upperBound, depth: depth)
        guard element.end == range.upperBound else {
            throw error(
                .trailingBytes, "\(range.upperBound - element.end) bytes follow the element that should end the input",
                at: element.end)
        }
        return element
    }

    /// Calls `body` for each child of a constructed element, in order.
    func forEachChild(
        of parent: TLV, depth: Int, _ body: (TLV) throws(ReceiptError) -> Void
    ) throws(ReceiptError) {
        var position = parent.contentStart
        while position < parent.contentEnd {
            let child = try element(at: position, limit: parent.contentEnd, depth: depth + 1)
            try body(child)
            position = child.end
        }
    }

    /// Checks the structure below a constructed element that is not otherwise read: every nested element must fit
    /// inside the one that contains it. Primitive contents (such as a payload OCTET STRING) are not looked into.
    func validateStructure(of element: TLV, depth: Int) throws(ReceiptError) {
        guard element.isConstructed else { return }
        try forEachChild(of: element, depth: depth) { (child) throws(ReceiptError) in
            try validateStructure(of: child, depth: depth + 1)
        }
    }

    /// Requires an element to have a given identifier octet.
    func expect(_ element: TLV, _ identifier: UInt8, _ what: @autoclosure () -> String) throws(ReceiptError) {
        guard element.identifier == identifier else {
            throw error(.unexpectedElement, "expected \(what()), found \(element.tag)", at: element.offset)
        }
    }

    // MARK: Primitive values

    /// Decodes an INTEGER that fits in 64 bits (two's complement).
    func int64(_ element: TLV, _ what: @autoclosure () -> String) throws(ReceiptError) -> Int64 {
        try expect(element, 0x02, "INTEGER (\(what()))")
        let count = element.contentCount
        guard count > 0 else {
            throw error(.invalidInteger, "\(what()) is an empty INTEGER", at: element.offset)
        }
        let start = element.contentStart
        if count > 1 {
            let b0 = bytes[start]
            let b1 = bytes[start + 1]
            if (b0 == 0 && b1 & 0x80 == 0) || (b0 == 0xFF && b1 & 0x80 != 0) {
                if rules == .der {
                    throw error(.invalidInteger, "\(what()) is not minimally encoded", at: element.offset)
                }
            }
        }
        // Skip redundant sign octets (BER), then require at most 8 significant bytes.
        var first = start
        while element.contentEnd - first > 8 {
            let sign: UInt8 = bytes[start] & 0x80 == 0 ? 0 : 0xFF
            guard bytes[first] == sign, bytes[first + 1] & 0x80 == sign & 0x80 else {
                throw error(.invalidInteger, "\(what()) does not fit in 64 bits", at: element.offset)
            }
            first += 1
        }
        var value: Int64 = bytes[first] & 0x80 != 0 ? -1 : 0
        for index in first..<element.contentEnd {
            value = value << 8 | Int64(bytes[index])
        }
        return value
    }

    /// The content bytes of a string-like element, joining BER segments if it is constructed.
    func contentBytes(_ element: TLV, depth: Int) throws(ReceiptError) -> ContentBytes {
        guard element.isConstructed else { return .range(element.content) }
        var joined: [UInt8] = []
        try appendSegments(of: element, depth: depth, into: &joined)
        return .joined(joined)
    }

    private func appendSegments(of element: TLV, depth: Int, into joined: inout [UInt8]) throws(ReceiptError) {
        let primitive = element.primitiveIdentifier
        try forEachChild(of: element, depth: depth) { (segment) throws(ReceiptError) in
            guard segment.primitiveIdentifier == primitive else {
                throw error(
                    .unexpectedElement, "segment of a constructed \(element.tag) is a \(segment.tag)",
                    at: segment.offset)
            }
            if segment.isConstructed {
                try appendSegments(of: segment, depth: depth + 1, into: &joined)
            } else {
                joined.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[segment.content]))
            }
        }
    }

    /// Decodes a character string (UTF8String, IA5String, PrintableString, VisibleString) as UTF-8.
    func string(_ element: TLV, _ what: @autoclosure () -> String, depth: Int) throws(ReceiptError) -> String {
        switch element.primitiveIdentifier {
        case 0x0C, 0x13, 0x16, 0x1A: break
        default:
            throw error(.unexpectedElement, "expected a string (\(what())), found \(element.tag)", at: element.offset)
        }
        let decoded: String?
        switch try contentBytes(element, depth: depth) {
        case .range(let range):
            decoded = Self.utf8(UnsafeRawBufferPointer(rebasing: bytes[range]))
        case .joined(let joined):
            decoded = joined.withUnsafeBytes { Self.utf8($0) }
        }
        guard let decoded else {
            throw error(.invalidString, "\(what()) is not valid UTF-8", at: element.offset)
        }
        return decoded
    }

    /// Decodes UTF-8, or returns nil if it is not valid.
    ///
    /// `String(decoding:as:)` on a byte buffer is the standard library's fast path; it repairs invalid input, which
    /// always changes the bytes, so comparing them detects it. (`String(validating:as:)` is generic and much slower.)
    @inline(__always)
    static func utf8(_ raw: UnsafeRawBufferPointer) -> String? {
        let buffer = raw.assumingMemoryBound(to: UInt8.self)
        let decoded = String(decoding: buffer, as: UTF8.self)
        var high: UInt8 = 0
        for byte in buffer { high |= byte }
        if high < 0x80 { return decoded }  // ASCII is always valid
        var copy = decoded
        return copy.withUTF8 { utf8 in
            utf8.count == buffer.count
                && (buffer.isEmpty || memcmp(utf8.baseAddress!, buffer.baseAddress!, buffer.count) == 0)
        } ? decoded : nil
    }

    /// Decodes an RFC 3339 date string in milliseconds since 1970, or nil for an empty string.
    func dateMilliseconds(_ element: TLV, _ what: @autoclosure () -> String, depth: Int) throws(ReceiptError) -> Int64?
    {
        switch element.primitiveIdentifier {
        case 0x0C, 0x13, 0x16, 0x1A: break
        default:
            throw error(
                .unexpectedElement, "expected a date string (\(what())), found \(element.tag)", at: element.offset)
        }
        let parsed: RFC3339.Result
        switch try contentBytes(element, depth: depth) {
        case .range(let range):
            parsed = RFC3339.parse(UnsafeRawBufferPointer(rebasing: bytes[range]))
        case .joined(let joined):
            parsed = joined.withUnsafeBytes { RFC3339.parse($0) }
        }
        switch parsed {
        case .empty: return nil
        case .milliseconds(let value): return value
        case .invalid(let reason):
            throw error(.invalidDate, "\(what()) is not an RFC 3339 date: \(reason)", at: element.offset)
        }
    }

    /// Copies a range of the input.
    func copy(_ range: Range<Int>) -> [UInt8] {
        Array(UnsafeRawBufferPointer(rebasing: bytes[range]))
    }

    /// Whether a range of the input equals the given bytes.
    func equals(_ range: Range<Int>, _ other: [UInt8]) -> Bool {
        guard range.count == other.count else { return false }
        return other.withUnsafeBytes { otherBytes in
            UnsafeRawBufferPointer(rebasing: bytes[range]).elementsEqual(otherBytes)
        }
    }
}

/// Where the content of a string lives: in the scanned buffer, or in a copy joined from BER segments.
enum ContentBytes {
    /// A range of the scanned buffer.
    case range(Range<Int>)
    /// A joined copy.
    case joined([UInt8])
}

/// Runs `body` over an array's bytes with a typed error (the standard library's closure is untyped).
@inline(__always)
func withBytes<R>(
    _ array: [UInt8], _ body: (UnsafeRawBufferPointer) throws(ReceiptError) -> R
) throws(ReceiptError) -> R {
    let result: Result<R, ReceiptError> = array.withUnsafeBytes { raw in
        Result { () throws(ReceiptError) -> R in try body(raw) }
    }
    return try result.get()
}
