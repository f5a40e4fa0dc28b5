/// A JSON value that keeps booleans, numbers and text apart: what configuration files, event payloads and receipt
/// output are read into and written from.
///
/// Written with ``jsonString`` (compact) or ``serialized(prettyPrinted:)``, object keys sorted, so the same value
/// gives the same bytes; ``JSONObjectWriter`` writes an object whose members keep the order they are added in.
/// Strings are escaped by ``escaped(_:)``.
public enum JSONValue: Sendable, Hashable, Codable, CustomStringConvertible {
    /// An object.
    case object([String: JSONValue])
    /// An array.
    case array([JSONValue])
    /// Text.
    case string(String)
    /// A number.
    case number(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null

    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Encodes the value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .object(let object): try container.encode(object)
        case .array(let array): try container.encode(array)
        case .string(let text): try container.encode(text)
        case .number(let number): try container.encode(number)
        case .bool(let flag): try container.encode(flag)
        case .null: try container.encodeNil()
        }
    }

    /// The member of an object; `nil` for anything else or a missing key.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// The text of a string value.
    public var stringValue: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    /// The value of a whole number.
    public var intValue: Int? {
        guard case .number(let number) = self, number.rounded() == number, abs(number) < 9e15 else { return nil }
        return Int(number)
    }

    /// The value, or nil for JSON `null`.
    public var nonNull: JSONValue? {
        if case .null = self { return nil }
        return self
    }

    /// Compact JSON text with sorted keys: the same bytes for the same value.
    public var jsonString: String { serialized(prettyPrinted: false) }

    /// The JSON text.
    public var description: String { jsonString }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    /// `"text"`.
    public init(stringLiteral value: String) { self = .string(value) }
    /// `3`.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// `9.99`.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// `true`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// `[1, "two"]`.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// `["key": "value"]`; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    /// `nil`.
    public init(nilLiteral: ()) { self = .null }
}
