extension JSONValue {
    /// The value as JSON text, object keys sorted: compact (`{"a":[1,true]}`), or with line breaks and two-space
    /// indentation (`"a": [`...) when `prettyPrinted`. Empty objects and arrays are `{}` and `[]` either way.
    ///
    /// - Parameter prettyPrinted: Whether to break lines and indent.
    /// - Returns: The JSON text.
    public func serialized(prettyPrinted: Bool) -> String {
        var output = ""
        write(to: &output, indent: prettyPrinted ? 0 : nil)
        return output
    }

    /// The body of a JSON string literal denoting `text`, without the enclosing quotes.
    ///
    /// `"` and `\` become `\"` and `\\`; line feed, carriage return and tab `\n`, `\r` and `\t`; other control
    /// characters below U+0020 `\u00XX` (lowercase hexadecimal). Everything else, U+007F and non-ASCII text
    /// included, is kept as it is: JSON requires no more.
    ///
    /// - Parameter text: Any text.
    /// - Returns: The escaped text.
    public static func escaped(_ text: String) -> String {
        guard needsEscaping(text) else { return text }
        var output = ""
        appendEscaped(text, to: &output)
        return output
    }

    /// Appends `text` as a JSON string literal, quotes included.
    static func appendQuoted(_ text: String, to output: inout String) {
        output += "\""
        if needsEscaping(text) {
            appendEscaped(text, to: &output)
        } else {
            output += text
        }
        output += "\""
    }

    /// JSON text of a number: a whole number below 9e15 without a fraction (`3`), others as Swift writes them
    /// (`2.5`), and `null` for infinities and NaN, which JSON cannot hold.
    static func numberText(_ number: Double) -> String {
        guard number.isFinite else { return "null" }
        if number.rounded() == number, abs(number) < 9e15 { return String(Int64(number)) }
        return "\(number)"
    }

    private static func needsEscaping(_ text: String) -> Bool {
        text.utf8.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }
    }

    private static func appendEscaped(_ text: String, to output: inout String) {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
    }

    private func write(to output: inout String, indent: Int?) {
        switch self {
        case .string(let text): Self.appendQuoted(text, to: &output)
        case .number(let number): output += Self.numberText(number)
        case .bool(let flag): output += flag ? "true" : "false"
        case .null: output += "null"
        case .array(let values):
            guard !values.isEmpty else {
                output += "[]"
                return
            }
            output += "["
            for (index, value) in values.enumerated() {
                if index > 0 { output += "," }
                Self.newline(&output, indent.map { $0 + 1 })
                value.write(to: &output, indent: indent.map { $0 + 1 })
            }
            Self.newline(&output, indent)
            output += "]"
        case .object(let members):
            guard !members.isEmpty else {
                output += "{}"
                return
            }
            output += "{"
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { output += "," }
                Self.newline(&output, indent.map { $0 + 1 })
                Self.appendQuoted(member.key, to: &output)
                output += indent == nil ? ":" : ": "
                member.value.write(to: &output, indent: indent.map { $0 + 1 })
            }
            Self.newline(&output, indent)
            output += "}"
        }
    }

    private static func newline(_ output: inout String, _ indent: Int?) {
        guard let indent else { return }
        output += "\n" + String(repeating: "  ", count: indent)
    }
}
