import StoreModels

/// Renders JWS as JSON for people and tools, in the layout of ``ReceiptJSON`` (two-space indentation, `"key": value`).
///
/// The header and payload are written exactly as signed: their keys (Apple's names) in their order, and their numbers
/// and strings as they are in the JWS (so Xcode's fractional milliseconds keep every digit); only the whitespace
/// between tokens changes.
public enum JWSJSON {
    /// A verified JWS: `{"file": ..., "payload": {...}, "verified": true}`.
    ///
    /// - Parameters:
    ///   - verified: The verified JWS.
    ///   - file: The file it came from, or nil to leave `file` out.
    ///   - prettyPrinted: Indented (true) or on one line.
    /// - Returns: The JSON text, without a final newline.
    public static func document(for verified: VerifiedJWS, file: String? = nil, prettyPrinted: Bool = true) -> String {
        document(
            [("file", file.map(quoted)), ("payload", verified.payloadJSON), ("verified", Array("true".utf8))],
            prettyPrinted: prettyPrinted)
    }

    /// An unverified JWS: `{"file": ..., "header": {...}, "payload": {...}, "verified": false}`.
    ///
    /// - Parameters:
    ///   - jws: The decoded JWS.
    ///   - file: The file it came from, or nil to leave `file` out.
    ///   - prettyPrinted: Indented (true) or on one line.
    /// - Returns: The JSON text, without a final newline.
    public static func document(for jws: CompactJWS, file: String? = nil, prettyPrinted: Bool = true) -> String {
        document(
            [
                ("file", file.map(quoted)), ("header", jws.headerJSON), ("payload", jws.payloadJSON),
                ("verified", Array("false".utf8)),
            ], prettyPrinted: prettyPrinted)
    }

    private static func document(_ members: [(String, [UInt8]?)], prettyPrinted: Bool) -> String {
        var text: [UInt8] = [UInt8(ascii: "{")]
        for (key, value) in members {
            guard let value else { continue }
            if text.count > 1 { text.append(UInt8(ascii: ",")) }
            text += quoted(key) + [UInt8(ascii: ":")] + value
        }
        text.append(UInt8(ascii: "}"))
        return String(decoding: reformat(text, prettyPrinted: prettyPrinted), as: UTF8.self)
    }

    /// A string as a JSON string literal, escaped as all JSON the project writes is (`JSONValue.escaped(_:)`).
    private static func quoted(_ string: String) -> [UInt8] {
        Array(("\"" + JSONValue.escaped(string) + "\"").utf8)
    }

    /// Re-lays out valid JSON text: whitespace outside strings is dropped, then, when pretty, a newline and two
    /// spaces per level follow `{`, `[` and `,`, precede `}` and `]`, and a space follows `:`. Empty `{}` and `[]`
    /// stay on one line.
    static func reformat(_ json: [UInt8], prettyPrinted: Bool) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(json.count * 2)
        var depth = 0
        var inString = false
        var escaped = false
        var index = 0
        func newline() {
            output.append(UInt8(ascii: "\n"))
            output += [UInt8](repeating: UInt8(ascii: " "), count: 2 * max(depth, 0))
        }
        func nextToken(after position: Int) -> UInt8? {
            var next = position + 1
            while next < json.count, [0x20, 0x0A, 0x0D, 0x09].contains(json[next]) { next += 1 }
            return next < json.count ? json[next] : nil
        }
        while index < json.count {
            let byte = json[index]
            defer { index += 1 }
            if inString {
                output.append(byte)
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case 0x20, 0x0A, 0x0D, 0x09: continue
            case UInt8(ascii: "\""):
                inString = true
                output.append(byte)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                output.append(byte)
                let next = nextToken(after: index)
                if next == UInt8(ascii: "}") || next == UInt8(ascii: "]") { continue }
                depth += 1
                if prettyPrinted { newline() }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if let last = output.last, last != UInt8(ascii: "{") && last != UInt8(ascii: "[") {
                    depth -= 1
                    if prettyPrinted { newline() }
                }
                output.append(byte)
            case UInt8(ascii: ","):
                output.append(byte)
                if prettyPrinted { newline() }
            case UInt8(ascii: ":"):
                output.append(byte)
                if prettyPrinted { output.append(UInt8(ascii: " ")) }
            default:
                output.append(byte)
            }
        }
        return output
    }
}
