/// Reads an onboarding payload's members in either key style, with errors that name the field and say what to send.
struct PayloadReader {
    let members: [String: JSONValue]
    /// Where the object sits, for messages: `meta`, `params`, or empty for the top level.
    let path: String
    /// The event, for messages.
    let event: String

    init(_ value: JSONValue, path: String, event: String) throws(PaywallEventsError) {
        guard case .object(let members) = value else {
            throw PaywallEventsError(
                .invalidEvent,
                "onboarding event \(event): \(path.isEmpty ? "the payload" : path) must be a JSON object, not \(value)"
            )
        }
        self.members = members
        self.path = path
        self.event = event
    }

    /// The value under the camelCase key or its snake_case spelling.
    func value(_ camel: String) -> JSONValue? {
        if let value = members[camel], value != .null { return value }
        if let value = members[OnboardingKeyStyle.snake(camel)], value != .null { return value }
        return nil
    }

    func name(_ camel: String) -> String {
        let snake = OnboardingKeyStyle.snake(camel)
        let field = snake == camel ? camel : "\(camel) (or \(snake))"
        return path.isEmpty ? field : "\(path).\(field)"
    }

    func string(_ camel: String) throws(PaywallEventsError) -> String {
        guard let value = value(camel) else { throw missing(camel, "text") }
        guard let text = value.stringValue else { throw wrong(camel, "text", value) }
        return text
    }

    func optionalString(_ camel: String) throws(PaywallEventsError) -> String? {
        guard let value = value(camel) else { return nil }
        guard let text = value.stringValue else { throw wrong(camel, "text", value) }
        return text
    }

    func int(_ camel: String) throws(PaywallEventsError) -> Int {
        guard let value = value(camel) else { throw missing(camel, "a whole number") }
        guard let number = value.intValue else { throw wrong(camel, "a whole number", value) }
        return number
    }

    func object(_ camel: String) throws(PaywallEventsError) -> PayloadReader {
        guard let value = value(camel) else { throw missing(camel, "an object") }
        return try PayloadReader(value, path: path.isEmpty ? camel : "\(path).\(camel)", event: event)
    }

    func optionalObject(_ camel: String) throws(PaywallEventsError) -> PayloadReader? {
        guard let value = value(camel) else { return nil }
        return try PayloadReader(value, path: path.isEmpty ? camel : "\(path).\(camel)", event: event)
    }

    private func missing(_ camel: String, _ kind: String) -> PaywallEventsError {
        PaywallEventsError(
            .invalidEvent, "onboarding event \(event): \(name(camel)) is missing; send it as \(kind)")
    }

    private func wrong(_ camel: String, _ kind: String, _ value: JSONValue) -> PaywallEventsError {
        PaywallEventsError(.invalidEvent, "onboarding event \(event): \(name(camel)) must be \(kind), not \(value)")
    }
}
