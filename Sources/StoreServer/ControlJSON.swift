#if Server
    /// A JSON value of a control request's body as it was sent: a boolean apart from a number, a whole number apart
    /// from a fraction, so that a field of the wrong type is refused rather than coerced.
    enum ControlJSON: Decodable, Sendable {
        case null
        case bool(Bool)
        /// A whole number that fits in 64 bits.
        case integer(Int64)
        /// Any other number: a fraction, or a whole number too large.
        case number(Double)
        case string(String)
        case array([ControlJSON])
        case object([String: ControlJSON])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let value = try? container.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? container.decode(Int64.self) {
                self = .integer(value)
            } else if let value = try? container.decode(Double.self) {
                self = .number(value)
            } else if let value = try? container.decode(String.self) {
                self = .string(value)
            } else if let value = try? container.decode([ControlJSON].self) {
                self = .array(value)
            } else {
                self = .object(try container.decode([String: ControlJSON].self))
            }
        }

        /// What the value is, for an error message: `the string "5"`, `the number 2.5`, `true`.
        var described: String {
            switch self {
            case .null: "null"
            case .bool(let value): "\(value)"
            case .integer(let value): "the number \(value)"
            case .number(let value): "the number \(value)"
            case .string(let value): "the string \"\(value.prefix(64))\""
            case .array: "an array"
            case .object: "an object"
            }
        }
    }
#endif
