import Foundation
import StoreModels

/// Where a feed run writes its event log: one JSON object per line (JSON Lines).
public protocol EventLogSink: AnyObject {
    /// Appends one line (without its newline).
    func append(_ line: String)
}

/// An event log kept in memory, for tests and small runs.
public final class MemoryEventLog: EventLogSink {
    /// The lines so far.
    public private(set) var lines: [String] = []

    /// Creates an empty log.
    public init() {}

    /// Appends a line.
    public func append(_ line: String) { lines.append(line) }

    /// The whole log, each line ended by a newline.
    public var text: String { lines.map { $0 + "\n" }.joined() }
}

/// An event log that discards everything (for speed runs).
public final class DiscardingEventLog: EventLogSink {
    /// Creates the sink.
    public init() {}
    /// Discards the line.
    public func append(_ line: String) {}
}

/// Builds one event line with fields in a fixed order; builds nothing for a run whose log is discarded.
struct EventLine {
    /// The line so far, or `nil` when it is not built.
    private var object: JSONObjectWriter?

    /// Starts a line, or, when `logging` is false, an empty one whose fields are ignored (a run that discards its log
    /// does not pay for writing it).
    init(logging: Bool = true, seq: Int, time: Date, event: String) {
        guard logging else { return }
        var object = JSONObjectWriter()
        object.add("seq", seq)
        object.add("time", .string(ISO8601.format(time)))
        object.add("event", .string(event))
        self.object = object
    }

    mutating func add(_ key: String, _ value: String?) { object?.add(key, value.map(JSONValue.string) ?? .null) }

    mutating func add(_ key: String, _ value: Int) { object?.add(key, value) }

    mutating func add(_ key: String, _ value: Bool) { object?.add(key, .bool(value)) }

    mutating func add(_ key: String, strings: [String]) { object?.add(key, .array(strings.map(JSONValue.string))) }

    mutating func add(_ key: String, raw: String) { object?.add(key, json: raw) }

    /// The line's JSON text; empty when it is not built.
    var line: String { object?.jsonString ?? "" }

    static func escape(_ value: String) -> String { JSONValue.escaped(value) }
}
