import Foundation

/// Reads a file through a size bound, so that a file of any size costs at most the bound in memory.
///
/// A regular file larger than the bound is refused from its size, before any byte is read; any other file (a pipe, a
/// device) is read only to one byte past the bound.
public enum BoundedFile {
    /// What reading a file gave.
    public enum Contents: Sendable, Equatable {
        /// The file's bytes, no more than the bound.
        case bytes([UInt8])
        /// The file holds more bytes than the bound: its size in bytes when it is known, nil for a file (a pipe, a
        /// device) found to be larger only by reading past the bound.
        case tooLarge(size: Int64?)
        /// The file cannot be read: why, for people (no such file, a directory, not openable).
        case unreadable(String)
    }

    /// Reads at most `limit` bytes of the file at `path`.
    ///
    /// - Parameters:
    ///   - path: The file's path.
    ///   - limit: The most bytes the file may hold.
    /// - Returns: The bytes, or why there are none.
    public static func read(atPath path: String, limit: Int) -> Contents {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return .unreadable("no such file")
        }
        guard !isDirectory.boolValue else { return .unreadable("cannot read a directory as a file") }
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        if (attributes?[.type] as? FileAttributeType) == .typeRegular,
            let size = (attributes?[.size] as? NSNumber)?.int64Value, size > Int64(limit)
        {
            return .tooLarge(size: size)
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return .unreadable("cannot open the file for reading")
        }
        defer { try? handle.close() }
        var bytes: [UInt8] = []
        while bytes.count <= limit {
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: min(1 << 20, limit + 1 - bytes.count))
            } catch {
                return .unreadable("cannot read the file: \(error.localizedDescription)")
            }
            guard let chunk, !chunk.isEmpty else { return .bytes(bytes) }
            bytes.append(contentsOf: chunk)
        }
        return .tooLarge(size: nil)
    }

    /// Says how large a file refused as ``Contents/tooLarge(size:)`` is against its bound, for an error message:
    /// "the file holds N bytes, more than the L bytes (…) WHAT may hold".
    ///
    /// - Parameters:
    ///   - size: The file's size, if known.
    ///   - limit: The bound.
    ///   - what: What the file is, such as "a receipt file".
    /// - Returns: The sentence's text.
    public static func tooLargeMessage(size: Int64?, limit: Int, what: String) -> String {
        let held = size.map { "\($0)" } ?? "more than \(limit)"
        let unit = limit >= 1 << 20 ? "\(limit >> 20) MiB" : "\(limit >> 10) KiB"
        return "the file holds \(held) bytes, more than the \(limit) bytes (\(unit)) \(what) may hold"
    }
}
