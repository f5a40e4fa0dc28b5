/// Where the lines of a feed come from: text already in memory, or a file read line by line.
enum FeedSource {
    /// Feed text.
    case text(String)
    /// A feed file, read through a fixed buffer.
    case file(FeedFile)

    /// Hands each line to `body` with its number (1-based), without its line end.
    ///
    /// - Throws: ``FeedError`` `outOfBounds` for a line longer than `FeedParser.maximumLineLength` bytes (naming
    ///   `file` and the line), what reading a file throws, or what `body` throws.
    func forEachLine(file: String, _ body: (Int, Substring) throws(FeedError) -> Void) throws(FeedError) {
        switch self {
        case .file(let feed):
            try feed.forEachLine(body)
        case .text(let text):
            var lineNumber = 0
            let utf8 = text.utf8
            var lineStart = utf8.startIndex
            // Lines are cut one at a time, so a feed of millions of steps is never held as an array of lines. The line
            // ends are ASCII bytes (LF, CR, or CR then LF) and always end a Character, so they are found among the
            // bytes.
            while lineStart < utf8.endIndex {
                let lineEnd = utf8[lineStart...].firstIndex { $0 == 0x0A || $0 == 0x0D } ?? utf8.endIndex
                let rawLine = text[lineStart..<lineEnd]
                if lineEnd < utf8.endIndex {
                    lineStart = utf8.index(after: lineEnd)
                    if utf8[lineEnd] == 0x0D, lineStart < utf8.endIndex, utf8[lineStart] == 0x0A {
                        lineStart = utf8.index(after: lineStart)
                    }
                } else {
                    lineStart = utf8.endIndex
                }
                lineNumber += 1
                let limit = FeedParser.maximumLineLength
                guard rawLine.utf8.count <= limit else {
                    throw FeedError(
                        .outOfBounds, file: file, line: lineNumber, column: 1,
                        "the line holds more than \(limit) bytes; a line holds at most \(limit)",
                        hint: "split it into several steps, one per line")
                }
                try body(lineNumber, rawLine)
            }
        }
    }
}
