/// A JSON object written member by member, its members in the order they are added: for payloads and log lines
/// whose keys follow a specification's order rather than sorted order.
///
/// Values are ``JSONValue``s (written as ``JSONValue/jsonString`` writes them), other writers' objects, or JSON text
/// made elsewhere. Keys are escaped as strings are.
public struct JSONObjectWriter: Sendable, Hashable {
    private var members = ""

    /// An object with no members yet.
    public init() {
        // Room for a typical log line or payload, so that adding members does not grow the text several times.
        members.reserveCapacity(192)
    }

    /// An object of `members`: first those named in `keyOrder`, in that order, then the others with their keys
    /// sorted. Values that are objects are written with their keys sorted.
    ///
    /// - Parameters:
    ///   - members: The members.
    ///   - keyOrder: The keys that come first, in their order; keys not among the members are passed over.
    public init(_ members: [String: JSONValue], keyOrder: [String]) {
        for key in keyOrder { if let value = members[key] { add(key, value) } }
        let ordered = Set(keyOrder)
        for (key, value) in members.sorted(by: { $0.key < $1.key }) where !ordered.contains(key) { add(key, value) }
    }

    /// Whether no member was added.
    public var isEmpty: Bool { members.isEmpty }

    /// Adds a member.
    public mutating func add(_ key: String, _ value: JSONValue) {
        startMember(key)
        switch value {
        case .string(let text): JSONValue.appendQuoted(text, to: &members)
        default: members += value.jsonString
        }
    }

    /// Adds a whole number, written exactly.
    public mutating func add(_ key: String, _ value: Int) { add(key, json: String(value)) }

    /// Adds another writer's object, or `null` when there is none.
    public mutating func add(_ key: String, object: JSONObjectWriter?) {
        add(key, json: object?.jsonString ?? "null")
    }

    /// Adds an array of other writers' objects, in their order.
    public mutating func add(_ key: String, objects: [JSONObjectWriter]) {
        add(key, json: "[" + objects.map(\.jsonString).joined(separator: ",") + "]")
    }

    /// Adds a member whose value is JSON text already: a number written exactly, or a nested value.
    ///
    /// - Parameters:
    ///   - key: The member's name.
    ///   - json: Valid JSON text; it is written as it is.
    public mutating func add(_ key: String, json: String) {
        startMember(key)
        members += json
    }

    /// Adds the members of another object after these, in their order.
    public mutating func add(contentsOf other: JSONObjectWriter) {
        guard !other.members.isEmpty else { return }
        if !members.isEmpty { members += "," }
        members += other.members
    }

    /// The object as compact JSON text.
    public var jsonString: String { "{" + members + "}" }

    private mutating func startMember(_ key: String) {
        if !members.isEmpty { members += "," }
        JSONValue.appendQuoted(key, to: &members)
        members += ":"
    }
}
