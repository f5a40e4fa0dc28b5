/// A JSON value as JWS verification reads it, parsed by ``parse(_:maximumDepth:)``: a strict RFC 8259 parser with a
/// bound on nesting, so that no input can make it recurse deeply, and valid UTF-8 required in strings.
///
/// Foundation's `JSONSerialization` does the same job but costs more than the ES256 verification it sits beside;
/// this parser makes only what verification reads.
indirect enum JSONTree: Sendable, Hashable {
    case object([String: JSONTree])
    case array([JSONTree])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    /// The member `key` of an object, or nil.
    subscript(key: String) -> JSONTree? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The string, or nil for any other value.
    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number, or nil for any other value (booleans are not numbers).
    var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The kind of value, for messages: `a string`, `a number`, `an object`, ...
    var kind: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }

    /// Why ``parse(_:maximumDepth:)`` refused a text.
    enum Refusal: Error, Equatable {
        /// Not valid JSON, or arrays and objects nested deeper than the bound.
        case invalid
        /// An object names this key twice. Decoders disagree on which value wins, so a verifier that read one and
        /// a decoder that read the other would check one payload and return another: such a text is refused.
        case duplicateKey(String)
    }

    /// Parses JSON text; refuses text that is not valid JSON, nests arrays and objects deeper than `maximumDepth`,
    /// or repeats a key in an object.
    static func parse(_ text: [UInt8], maximumDepth: Int) -> Result<JSONTree, Refusal> {
        text.withUnsafeBufferPointer { buffer in
            var parser = Parser(bytes: buffer, maximumDepth: maximumDepth, materialize: true)
            guard let value = parser.value(depth: 0) else { return .failure(parser.refusal) }
            parser.skipWhitespace()
            return parser.index == buffer.count ? .success(value) : .failure(.invalid)
        }
    }

    /// Whether JSON text is one object, nested at most `maximumDepth` levels, checked without building the tree (so
    /// without looking for repeated keys, which ``parse(_:maximumDepth:)`` refuses).
    static func isObject(_ text: [UInt8], maximumDepth: Int) -> Bool {
        text.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{")
            && parse(text, maximumDepth: maximumDepth, materialize: false) != nil
    }

    private static func parse(_ text: [UInt8], maximumDepth: Int, materialize: Bool) -> JSONTree? {
        text.withUnsafeBufferPointer { buffer in
            var parser = Parser(bytes: buffer, maximumDepth: maximumDepth, materialize: materialize)
            guard let value = parser.value(depth: 0) else { return nil }
            parser.skipWhitespace()
            return parser.index == buffer.count ? value : nil
        }
    }

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        let maximumDepth: Int
        /// Whether to build the tree (false: only check the text, returning placeholder values).
        let materialize: Bool
        var index = 0
        /// Why the parse failed, when a value came back nil.
        var refusal = Refusal.invalid

        init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int, materialize: Bool) {
            self.bytes = bytes
            self.maximumDepth = maximumDepth
            self.materialize = materialize
        }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) -> JSONTree? {
            skipWhitespace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"): return object(depth: depth + 1)
            case UInt8(ascii: "["): return array(depth: depth + 1)
            case UInt8(ascii: "\""): return string().map(JSONTree.string)
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "n"): return literal("null", .null)
            default: return number()
            }
        }

        mutating func literal(_ word: StaticString, _ value: JSONTree) -> JSONTree? {
            let count = word.utf8CodeUnitCount
            guard bytes.count - index >= count else { return nil }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return nil }
            index += count
            return value
        }

        mutating func object(depth: Int) -> JSONTree? {
            guard depth <= maximumDepth else { return nil }
            index += 1  // {
            var members: [String: JSONTree] = [:]
            skipWhitespace()
            if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return nil }
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                index += 1
                guard let value = value(depth: depth) else { return nil }
                if materialize {
                    guard members[key] == nil else {
                        refusal = .duplicateKey(key)
                        return nil
                    }
                    members[key] = value
                }
                skipWhitespace()
                guard index < bytes.count else { return nil }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(members)
                } else {
                    return nil
                }
            }
        }

        mutating func array(depth: Int) -> JSONTree? {
            guard depth <= maximumDepth else { return nil }
            index += 1  // [
            var elements: [JSONTree] = []
            skipWhitespace()
            if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                guard let element = value(depth: depth) else { return nil }
                if materialize { elements.append(element) }
                skipWhitespace()
                guard index < bytes.count else { return nil }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(elements)
                } else {
                    return nil
                }
            }
        }

        /// A string starting at the opening quote.
        mutating func string() -> String? {
            index += 1  // "
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let raw = UnsafeBufferPointer(rebasing: bytes[start..<index])
                    index += 1
                    if !materialize && raw.allSatisfy({ $0 < 0x80 }) { return "" }
                    return String(validating: raw, as: UTF8.self)
                }
                if byte == UInt8(ascii: "\\") { return escapedString(from: start) }
                if byte < 0x20 { return nil }
                index += 1
            }
            return nil
        }

        /// The rest of a string that has escapes, from its first byte.
        mutating func escapedString(from start: Int) -> String? {
            var output = Array(bytes[start..<index])
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(validating: output, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { return nil }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(escape)
                    case UInt8(ascii: "b"): output.append(0x08)
                    case UInt8(ascii: "f"): output.append(0x0C)
                    case UInt8(ascii: "n"): output.append(0x0A)
                    case UInt8(ascii: "r"): output.append(0x0D)
                    case UInt8(ascii: "t"): output.append(0x09)
                    case UInt8(ascii: "u"):
                        guard var scalar = hex4() else { return nil }
                        if (0xD800..<0xDC00).contains(scalar) {
                            guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"),
                                bytes[index + 1] == UInt8(ascii: "u")
                            else { return nil }
                            index += 2
                            guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let unicode = Unicode.Scalar(scalar) else { return nil }
                        output.append(contentsOf: Array(String(Character(unicode)).utf8))
                    default: return nil
                    }
                default:
                    if byte < 0x20 { return nil }
                    output.append(byte)
                }
            }
            return nil
        }

        mutating func hex4() -> UInt32? {
            guard bytes.count - index >= 4 else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                index += 1
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: return nil
                }
                value = value << 4 | digit
            }
            return value
        }

        /// A number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
        mutating func number() -> JSONTree? {
            let start = index
            func digits() -> Int {
                let first = index
                while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                    index += 1
                }
                return index - first
            }
            if index < bytes.count && bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else if digits() == 0 {
                return nil
            }
            if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { return nil }
            }
            if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
                index += 1
                if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
                    index += 1
                }
                guard digits() > 0 else { return nil }
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            guard let value = Double(text), value.isFinite else { return nil }
            return .number(value)
        }
    }
}
