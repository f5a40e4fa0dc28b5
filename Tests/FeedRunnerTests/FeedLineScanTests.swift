import Foundation
import Testing

@testable import FeedRunner

@Suite("Cutting and scanning feed lines")
struct FeedLineScanTests {
    /// The words and trimmed text of a line as the Character-by-Character reading has them.
    private static func byCharacters(_ line: Substring) -> (words: [String], columns: [Int], text: String) {
        let tokens = FeedLexer.tokenize(line)
        let trimmed = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return (tokens.map(\.word), tokens.map(\.column), trimmed.trimmingCharacters(in: .whitespaces))
    }

    @Test(
        "A line's words, columns and text are those the Character reading finds, ASCII or not",
        arguments: [
            "buy com.example.pro", "  buy\tcom.example.pro  as pro  # a comment", "\t\texpect owned com.example.pro\t",
            "# only a comment", "   ", "", "advance 3d#no space before the comment", "user é # accents after",
            "user caf\u{E9} as h\u{E9}", "buy com.example.pro # caf\u{E9}", "user e\u{301}x  ", "a\u{0B}b c",
            "buy x\u{0B}", "\u{0C}buy x", "buy x\u{A0}",
        ])
    func scan(line: String) {
        let scanned = FeedLexer.scan(Substring(line))
        let expected = Self.byCharacters(Substring(line))
        #expect(scanned.tokens.map(\.word) == expected.words)
        #expect(scanned.tokens.map(\.column) == expected.columns)
        #expect(scanned.text == expected.text)
    }

    @Test("LF, CRLF and lone CR each end a line, and line numbers count them all")
    func lineEnds() throws {
        let text = "config demo\r\nuser a\rbuy com.example.pro\n\n# comment\r\nexpect owned com.example.pro\r"
        var lines: [(Int, String)] = []
        try FeedParser(file: "ends.feed").forEachStep(in: text) { lines.append(($0.line, $0.text)) }
        #expect(lines.map(\.0) == [1, 2, 3, 6])
        #expect(lines.map(\.1) == ["config demo", "user a", "buy com.example.pro", "expect owned com.example.pro"])
    }
}
