import Foundation

/// JSON with its object keys in a chosen order, so payloads print in the order the specification shows them.
indirect enum OrderedJSON {
    case object([(String, OrderedJSON)])
    case array([OrderedJSON])
    case string(String)
    /// A number already written as JSON text.
    case number(String)
    case bool(Bool)
    case null

    /// A free-form value, its object keys sorted.
    init(_ value: JSONValue) {
        switch value {
        case .object(let object):
            self = .object(object.sorted { $0.key < $1.key }.map { ($0.key, OrderedJSON($0.value)) })
        case .array(let array): self = .array(array.map(OrderedJSON.init))
        case .string(let text): self = .string(text)
        case .number(let number): self = .number(Self.format(number))
        case .bool(let flag): self = .bool(flag)
        case .null: self = .null
        }
    }

    static func decimal(_ value: Decimal) -> OrderedJSON { .number("\(value)") }

    static func integer(_ value: Int) -> OrderedJSON { .number(String(value)) }

    static func optional(_ text: String?) -> OrderedJSON { text.map(OrderedJSON.string) ?? .null }

    /// The compact JSON text.
    var text: String {
        var out = ""
        write(into: &out)
        return out
    }

    private func write(into out: inout String) {
        switch self {
        case .object(let members):
            out += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out += "," }
                Self.quote(key, into: &out)
                out += ":"
                value.write(into: &out)
            }
            out += "}"
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(into: &out)
            }
            out += "]"
        case .string(let text): Self.quote(text, into: &out)
        case .number(let text): out += text
        case .bool(let flag): out += flag ? "true" : "false"
        case .null: out += "null"
        }
    }

    static func format(_ number: Double) -> String {
        guard number.isFinite else { return "null" }
        if number.rounded() == number, abs(number) < 9e15 { return String(Int64(number)) }
        return "\(number)"
    }

    private static func quote(_ text: String, into out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
