/// An analytics event with its parameters, as the library counts it for itself.
public struct AnalyticsRecord: Sendable, Hashable {
    /// The event's name, such as `flow_screen_showed`.
    public let name: String
    /// Its parameters.
    public let params: [String: JSONValue]

    /// Creates a record.
    public init(name: String, params: [String: JSONValue]) {
        self.name = name
        self.params = params
    }
}
