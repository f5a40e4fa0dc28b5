public import Foundation

/// Reads the bytes of a feed (or of a `.storekit` file a feed names) and checks that they are text.
///
/// A feed is UTF-8 text; a leading byte order mark is skipped. Bytes that are not UTF-8, and control characters other
/// than tab, line feed and carriage return (a NUL byte is the mark of a binary file), are reported as
/// `file:line:column` before anything is parsed.
public enum FeedText {
    /// The most bytes read from a pipe, a device or any file that is not a regular file (1 GiB).
    public static let streamLimit = 1 << 30

    /// Checks that `data` is UTF-8 text and returns it as a string.
    ///
    /// - Throws: ``FeedError`` with code `notText` at the line and column of the first byte that is not UTF-8, or of
    ///   the first control character.
    public static func decode(_ data: Data, file: String) throws(FeedError) -> String {
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        var line = 1
        var column = 1
        var afterCarriageReturn = false
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                switch scalar.value {
                case 0x0A:
                    if !afterCarriageReturn { line += 1 }
                    column = 1
                    afterCarriageReturn = false
                    continue loop
                case 0x0D:
                    line += 1
                    column = 1
                    afterCarriageReturn = true
                    continue loop
                case 0x09:
                    break
                case 0x00..<0x20:
                    let name = scalar.value == 0 ? " (NUL)" : ""
                    let code =
                        "U+" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                        + String(scalar.value, radix: 16, uppercase: true)
                    throw FeedError(
                        .notText, file: file, line: line, column: column,
                        "the control character \(code)\(name) is not feed text"
                            + (scalar.value == 0 ? "; this looks like a binary file" : ""),
                        hint:
                            "a feed is UTF-8 text: if this is a binary file, name a feed instead; otherwise remove the character"
                    )
                default:
                    break
                }
                afterCarriageReturn = false
                column += 1
            case .emptyInput:
                break loop
            case .error:
                throw FeedError(
                    .notText, file: file, line: line, column: column, "the bytes here are not UTF-8",
                    hint: "save the feed as UTF-8 text (or name a feed file, not a binary one)")
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads a whole file: a regular file of any size, or at most `limit` bytes of anything else (a pipe, a device).
    ///
    /// - Parameters:
    ///   - limit: the most bytes of a file that is not regular, or of any file when `regularFilesToo` is true.
    ///   - what: what the file should be, for messages (`a feed`, `a .storekit file`).
    /// - Throws: ``FeedError`` with `code` (`unreadable` by default) naming the path: missing, a directory, not
    ///   readable, too large.
    static func read(
        _ url: URL, file: String, line: Int = 0, column: Int = 0, what: String, limit: Int = streamLimit,
        regularFilesToo: Bool = false, code: FeedError.Code = .unreadable
    ) throws(FeedError) -> Data {
        let path = url.path
        func failure(_ message: String, _ hint: String) -> FeedError {
            FeedError(code, file: file, line: line, column: column, message, hint: hint)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw failure("there is no file at \(path)", "check the path of \(what)")
        }
        guard !isDirectory.boolValue else {
            throw failure("\(path) is a directory, not \(what)", "name a file inside it")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw failure("\(path) cannot be opened for reading", "check the file's permissions")
        }
        defer { try? handle.close() }
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let regular = (attributes?[.type] as? FileAttributeType) == .typeRegular
        let bound = regular && !regularFilesToo ? Int.max : limit
        var data = Data()
        while true {
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: 1 << 20)
            } catch {
                throw failure("\(path) cannot be read (\(error.localizedDescription))", "check that it is \(what)")
            }
            guard let chunk, !chunk.isEmpty else { break }
            // A NUL byte means a binary file: stop reading (a device such as /dev/zero never ends); decode() reports
            // its place.
            let binary = chunk.contains(0)
            data.append(chunk)
            if binary { break }
            guard data.count <= bound else {
                throw failure(
                    "\(path) holds more than \(bound) bytes, more than \(what) may",
                    "name \(what) of at most \(bound) bytes")
            }
        }
        return data
    }
}
