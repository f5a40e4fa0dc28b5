public import Foundation

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

/// An event log written to a file handle through a buffer.
public final class FileEventLog: EventLogSink {
    private let handle: FileHandle
    private var buffer = Data()

    /// Writes to `handle`; call ``flush()`` when done.
    public init(handle: FileHandle) {
        self.handle = handle
        buffer.reserveCapacity(1 << 16)
    }

    /// Appends a line.
    public func append(_ line: String) {
        buffer.append(contentsOf: line.utf8)
        buffer.append(10)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes what is buffered.
    public func flush() {
        guard !buffer.isEmpty else { return }
        handle.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    deinit { flush() }
}

/// Builds one event line with fields in a fixed order.
struct EventLine {
    private var text: String

    init(seq: Int, time: Date, event: String) {
        text = "{\"seq\":\(seq),\"time\":\"\(ISO8601.format(time))\",\"event\":\"\(event)\""
    }

    mutating func add(_ key: String, _ value: String?) {
        guard let value else { return add(key, raw: "null") }
        text += ",\"\(key)\":\"" + Self.escape(value) + "\""
    }

    mutating func add(_ key: String, _ value: Int) { add(key, raw: String(value)) }

    mutating func add(_ key: String, _ value: Bool) { add(key, raw: value ? "true" : "false") }

    mutating func add(_ key: String, strings: [String]) {
        add(key, raw: "[" + strings.map { "\"" + Self.escape($0) + "\"" }.joined(separator: ",") + "]")
    }

    mutating func add(_ key: String, raw: String) { text += ",\"\(key)\":" + raw }

    var line: String { text + "}" }

    static func escape(_ value: String) -> String {
        guard value.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) else { return value }
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let control where control.value < 0x20:
                out +=
                    "\\u" + String(repeating: "0", count: 4 - String(control.value, radix: 16).count)
                    + String(control.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
