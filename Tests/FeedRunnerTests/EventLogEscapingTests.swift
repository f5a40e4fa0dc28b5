import Foundation
import Testing

@testable import FeedRunner

/// The string a JSON string literal denotes, read by Foundation's JSON parser.
func decodedJSONString(_ literal: String) throws -> String {
    let value = try JSONSerialization.jsonObject(with: Data(literal.utf8), options: .fragmentsAllowed)
    return try #require(value as? String)
}

@Suite("Event log escaping")
struct EventLogEscapingTests {
    @Test(
        "Escaped strings are JSON strings that denote the original",
        arguments: [
            #"back\slash"#, #"quote""#, #"\""#, #"\\"#, "a\"b\\c", "line\nfeed", "tab\there", "cr\rlf",
            "\u{0}\u{1}\u{8}\u{C}\u{1F}", "del\u{7F}", "caf\u{E9}", "\u{1F600} \u{2028}\u{2029}", "plain", "",
        ])
    func roundTrip(value: String) throws {
        let escaped = EventLine.escape(value)
        #expect(try decodedJSONString("\"" + escaped + "\"") == value, "\(escaped)")
        #expect(!escaped.unicodeScalars.contains { $0.value < 0x20 })
    }

    @Test("Backslashes, quotes and control characters get their JSON escapes")
    func exactEscapes() {
        #expect(EventLine.escape(#"a\b"#) == #"a\\b"#)
        #expect(EventLine.escape(#"say "hi""#) == #"say \"hi\""#)
        #expect(EventLine.escape("\u{1}\n\t\r\u{7F}\u{E9}") == #"\u0001\n\t\r"# + "\u{7F}\u{E9}")
    }

    @Test("Names and references with backslashes, quotes and non-ASCII text reach the log as valid JSON")
    func feedNames() throws {
        let handle = #"t\1"q"#
        let observer = "\u{F6}bs\\erver\u{7F}"
        let user = #"ann"\"#
        let feed = """
            user \(user)
            observer add \(observer)
            buy com.example.pro as \(handle)
            expect states \(handle) purchasing purchased
            """
        let log = MemoryEventLog()
        let result = try FeedRun.run(feed, file: "names.feed", log: log)
        #expect(result.passed, "\(result.failure?.description ?? "")")
        var steps: [String] = []
        var updates: [(user: String, observer: String, handle: String)] = []
        for line in log.lines {
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not JSON: \(line)")
            if object["event"] as? String == "step", let step = object["step"] as? String { steps.append(step) }
            if object["event"] as? String == "updated" {
                updates.append(
                    (
                        object["user"] as? String ?? "", object["observer"] as? String ?? "",
                        object["handle"] as? String ?? ""
                    ))
            }
        }
        #expect(steps == feed.split(separator: "\n").map(String.init))
        #expect(updates.contains { $0 == (user, observer, handle) }, "\(updates)")
        #expect(updates.contains { $0 == (user, "app", handle) }, "\(updates)")
    }
}
