import Foundation

/// Splits a feed's line into words: the words with their 1-based columns, up to a `#` comment.
enum FeedLexer {
    /// A word of a line and the column it starts at (1-based, in characters).
    typealias Token = (word: String, column: Int)

    /// The words of a line with their 1-based columns (as ``tokenize(_:)`` finds them), and its text before any `#`
    /// comment without the spaces and tabs around it.
    static func scan(_ line: Substring) -> (tokens: [Token], text: String) {
        if let scanned = scanASCII(line) { return scanned }
        let trimmed = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return (tokenize(line), trimmed.trimmingCharacters(in: .whitespaces))
    }

    /// ``scan(_:)`` of a line whose text before any `#` is ASCII, byte by byte: each byte is then one Character (a
    /// line holds no CR), and the whitespace trimmed is spaces and tabs. `nil` for any other line.
    private static func scanASCII(_ line: Substring) -> (tokens: [Token], text: String)? {
        let scanned = line.utf8.withContiguousStorageIfAvailable {
            bytes -> (tokens: [Token], text: String)? in
            func string(_ range: Range<Int>) -> String {
                String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            }
            var tokens: [Token] = []
            var wordStart: Int?
            var end = bytes.count
            for position in 0..<bytes.count {
                let byte = bytes[position]
                guard byte < 0x80 else { return nil }
                if byte == UInt8(ascii: "#") {
                    end = position
                    break
                }
                if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") {
                    if let start = wordStart { tokens.append((string(start..<position), start + 1)) }
                    wordStart = nil
                } else if wordStart == nil {
                    wordStart = position
                }
            }
            if let start = wordStart { tokens.append((string(start..<end), start + 1)) }
            func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
            var low = 0
            var high = end
            while low < high, isBlank(bytes[low]) { low += 1 }
            while high > low, isBlank(bytes[high - 1]) { high -= 1 }
            return (tokens, string(low..<high))
        }
        return scanned ?? nil
    }

    /// Words of a line with their 1-based columns, up to a `#` comment.
    static func tokenize(_ line: Substring) -> [Token] {
        var tokens: [(String, Int)] = []
        var current = ""
        var start = 0
        var column = 0
        for character in line {
            column += 1
            if character == "#" { break }
            if character == " " || character == "\t" || character == "\r" {
                if !current.isEmpty { tokens.append((current, start)) }
                current = ""
            } else {
                if current.isEmpty { start = column }
                current.append(character)
            }
        }
        if !current.isEmpty { tokens.append((current, start)) }
        return tokens
    }
}
