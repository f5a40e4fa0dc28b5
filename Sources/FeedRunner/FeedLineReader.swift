/// Cuts the bytes of a feed into lines as they arrive, chunk by chunk, and checks that each line is text.
///
/// Lines end with LF, CRLF or a lone CR (a CR at the end of one chunk and an LF at the start of the next are one line
/// end). A leading UTF-8 byte order mark is skipped. No more than one line is held, and a line longer than
/// `maximumLineLength` bytes is refused as soon as its bytes pass that length, so memory never grows with the feed or
/// with a line.
struct FeedLineReader {
    /// The file name used in error messages.
    let file: String
    /// The most bytes one line may hold.
    let maximumLineLength: Int
    /// The bytes of the line being collected.
    private var pending: [UInt8] = []
    /// The number of the line being collected (1-based).
    private var lineNumber = 1
    /// Whether the last byte seen was a CR, so that an LF right after it ends no further line.
    private var afterCarriageReturn = false

    /// Creates a reader whose errors name `file`.
    init(file: String, maximumLineLength: Int = FeedParser.maximumLineLength) {
        self.file = file
        self.maximumLineLength = maximumLineLength
        pending.reserveCapacity(1024)
    }

    /// Takes the next bytes of the feed and hands each line they complete to `body`, with its number.
    ///
    /// - Throws: ``FeedError`` `notText` for a line that is not text, `outOfBounds` for a line longer than
    ///   ``maximumLineLength``, or what `body` throws.
    mutating func read(
        _ chunk: UnsafeRawBufferPointer, _ body: (Int, Substring) throws(FeedError) -> Void
    ) throws(FeedError) {
        var index = 0
        let count = chunk.count
        while index < count {
            if afterCarriageReturn {
                afterCarriageReturn = false
                if chunk[index] == 0x0A {
                    index += 1
                    continue
                }
            }
            var end = index
            while end < count, chunk[end] != 0x0A, chunk[end] != 0x0D { end += 1 }
            let room = maximumLineLength + 1 - pending.count
            guard end - index < room else {
                pending.append(contentsOf: chunk[index..<(index + room)])
                throw tooLong()
            }
            pending.append(contentsOf: chunk[index..<end])
            guard end < count else { return }
            afterCarriageReturn = chunk[end] == 0x0D
            index = end + 1
            try emit(body)
        }
    }

    /// Hands the last line to `body`, if the feed does not end with a line end.
    mutating func finish(_ body: (Int, Substring) throws(FeedError) -> Void) throws(FeedError) {
        guard !pending.isEmpty else { return }
        try emit(body)
    }

    private mutating func emit(_ body: (Int, Substring) throws(FeedError) -> Void) throws(FeedError) {
        // Read through a function of its own, so that no slice of the buffer outlives it: emptying a buffer a slice
        // still shares would allocate a new one for every line.
        let text = try checkedLine()
        pending.removeAll(keepingCapacity: true)
        let number = lineNumber
        lineNumber += 1
        try body(number, text[...])
    }

    /// The line collected, without a byte order mark on the first line, checked to be text.
    private func checkedLine() throws(FeedError) -> String {
        var bytes = pending[...]
        if lineNumber == 1, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        try FeedText.check(bytes, file: file, line: lineNumber)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The error for a line longer than the limit: `notText` if its first bytes are not text (a binary file, whose
    /// "line" may never end), `outOfBounds` otherwise.
    private func tooLong() -> FeedError {
        var bytes = pending[...]
        if lineNumber == 1, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        do throws(FeedError) {
            try FeedText.check(bytes, file: file, line: lineNumber, cutShort: true)
        } catch {
            return error
        }
        return FeedError(
            .outOfBounds, file: file, line: lineNumber, column: 1,
            "the line holds more than \(maximumLineLength) bytes; a line holds at most \(maximumLineLength)",
            hint: "split it into several steps, one per line")
    }
}
