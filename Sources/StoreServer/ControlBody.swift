#if Server
    import Foundation

    /// The JSON object of a control request's body, read field by field: a field of the wrong type or out of range is
    /// a 400 that names it and says what it takes, never a value coerced or a default put in its place.
    struct ControlBody: Sendable {
        private let fields: [String: ControlJSON]

        /// Reads a body: empty is `{}`; anything but a JSON object is refused.
        init(_ body: [UInt8]) throws(ControlError) {
            guard !body.isEmpty else {
                fields = [:]
                return
            }
            guard case .object(let fields)? = try? JSONDecoder().decode(ControlJSON.self, from: Data(body)) else {
                throw ControlError("the body is not a JSON object")
            }
            self.fields = fields
        }

        /// Whether the field is present (and not null).
        func has(_ name: String) -> Bool {
            guard let value = fields[name] else { return false }
            if case .null = value { return false }
            return true
        }

        /// A string field that is not empty; nil when absent.
        func string(_ name: String) throws(ControlError) -> String? {
            guard has(name), let value = fields[name] else { return nil }
            guard case .string(let text) = value, !text.isEmpty else {
                throw ControlError("\(name) must be a non-empty string, not \(value.described)")
            }
            return text
        }

        /// A string field that must be present and not empty.
        func requiredString(_ name: String) throws(ControlError) -> String {
            guard let text = try string(name) else { throw ControlError("\(name) is required (a non-empty string)") }
            return text
        }

        /// A string field that must be one of `values`; nil when absent. Any other value is refused, naming the field
        /// and the values it takes.
        func oneOf(_ name: String, _ values: [String]) throws(ControlError) -> String? {
            guard has(name), let value = fields[name] else { return nil }
            guard case .string(let text) = value, values.contains(text) else {
                let list = values.map { "\"\($0)\"" }.joined(separator: " or ")
                throw ControlError("\(name) must be \(list), not \(value.described)")
            }
            return text
        }

        /// A whole-number field within `range`; nil when absent. A string, boolean, fraction or number outside the
        /// range is refused.
        func integer(_ name: String, in range: ClosedRange<Int64>, _ meaning: String) throws(ControlError) -> Int64? {
            guard has(name), let value = fields[name] else { return nil }
            guard case .integer(let number) = value, range.contains(number) else {
                throw ControlError("\(name) must be \(meaning), not \(value.described)")
            }
            return number
        }

        /// A boolean field; nil when absent.
        func bool(_ name: String) throws(ControlError) -> Bool? {
            guard has(name), let value = fields[name] else { return nil }
            guard case .bool(let flag) = value else {
                throw ControlError("\(name) must be true or false, not \(value.described)")
            }
            return flag
        }

        /// A field that must be a non-empty array of non-empty strings.
        func requiredStrings(_ name: String) throws(ControlError) -> [String] {
            guard has(name), let value = fields[name] else {
                throw ControlError("\(name) is required (a non-empty array of non-empty strings)")
            }
            guard case .array(let items) = value, !items.isEmpty else {
                throw ControlError("\(name) must be a non-empty array of non-empty strings, not \(value.described)")
            }
            return try items.map { item throws(ControlError) in
                guard case .string(let text) = item, !text.isEmpty else {
                    throw ControlError("each of \(name) must be a non-empty string, not \(item.described)")
                }
                return text
            }
        }
    }
#endif
