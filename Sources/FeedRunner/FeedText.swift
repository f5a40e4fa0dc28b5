public import Foundation
import StoreModels

/// Checks that the bytes of a feed are text, and reads the `.storekit` files a feed names.
///
/// A feed is UTF-8 text; a leading byte order mark is skipped. Bytes that are not UTF-8, and control characters other
/// than tab, line feed and carriage return (a NUL byte is the mark of a binary file), are reported as
/// `file:line:column` before anything runs. Feed files are read line by line (``FeedFile``), never whole.
public enum FeedText {
    /// The most bytes read from a pipe, a device or any file that is not a regular file (1 GiB): such a feed is
    /// copied to a temporary file as it is read, so that it can be read twice (checked, then run).
    public static let streamLimit = 1 << 30

    /// Checks that `data` is UTF-8 text and returns it as a string (a leading byte order mark skipped).
    ///
    /// - Throws: ``FeedError`` with code `notText` at the line and column of the first byte that is not UTF-8, or of
    ///   the first control character; `outOfBounds` for a line longer than ``FeedParser/maximumLineLength``.
    public static func decode(_ data: Data, file: String) throws(FeedError) -> String {
        var reader = FeedLineReader(file: file)
        let ignore: (Int, Substring) throws(FeedError) -> Void = { _, _ in }
        try [UInt8](data).withUnsafeBytes { bytes in
            Result { () throws(FeedError) in try reader.read(bytes, ignore) }
        }.get()
        try reader.finish(ignore)
        let bytes = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Checks that the bytes of one line (without its line end) are UTF-8 text without control characters other than
    /// tab.
    ///
    /// - Parameter cutShort: the bytes are the start of a longer line, so a UTF-8 sequence cut at their end is not an
    ///   error.
    /// - Throws: ``FeedError`` `notText` at the line and column of the first byte that is not UTF-8, or of the first
    ///   control character.
    static func check(
        _ bytes: ArraySlice<UInt8>, file: String, line: Int, cutShort: Bool = false
    ) throws(FeedError) {
        // Most lines are ASCII without control characters: one pass over the bytes settles them.
        if !bytes.contains(where: { $0 < 0x20 && $0 != 0x09 || $0 >= 0x7F }) { return }
        var column = 1
        var offset = bytes.startIndex
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                offset += UTF8.width(scalar)
                if scalar.value < 0x20 && scalar.value != 0x09 {
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
                }
                column += 1
            case .emptyInput:
                return
            case .error:
                if cutShort, bytes.endIndex - offset < 4 { return }
                throw FeedError(
                    .notText, file: file, line: line, column: column, "the bytes here are not UTF-8",
                    hint: "save the feed as UTF-8 text (or name a feed file, not a binary one)")
            }
        }
    }

    /// Reads a whole file of at most `limit` bytes (a `.storekit` file a feed names), whatever kind of file it is.
    ///
    /// - Parameters:
    ///   - limit: the most bytes the file may hold.
    ///   - what: what the file should be, for messages (`a .storekit file`).
    /// - Throws: ``FeedError`` with `code` (`unreadable` by default) naming the path: missing, a directory, not
    ///   readable, too large.
    static func read(
        _ url: URL, file: String, line: Int = 0, column: Int = 0, what: String, limit: Int,
        code: FeedError.Code = .unreadable
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
        switch BoundedFile.read(atPath: path, limit: limit) {
        case .bytes(let bytes):
            return Data(bytes)
        case .tooLarge:
            throw failure(
                "\(path) holds more than \(limit) bytes, more than \(what) may",
                "name \(what) of at most \(limit) bytes")
        case .unreadable(let reason):
            throw failure("\(path): \(reason)", "check the file's permissions and that it is \(what)")
        }
    }
}
