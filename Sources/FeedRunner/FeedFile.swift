public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A feed file, read line by line through a fixed buffer: the text is never held whole, so memory does not grow with
/// the file.
///
/// A feed is read twice, once to check it and once to run it. A regular file is read where it is; it must not change
/// between the two readings (its size and modification time are compared, and a change is an error). A pipe, a
/// device or any other file that is not regular is copied first, as it is read, to a temporary file (already
/// unlinked, so nothing is left behind), at most ``FeedText/streamLimit`` bytes and no further than the first NUL
/// byte. The descriptor is owned by this object and closed when it goes.
public final class FeedFile {
    /// The size of the buffer the file is read through (64 KiB).
    static let bufferSize = 1 << 16

    /// The file name used in error messages.
    public let file: String
    /// The path the feed was read from.
    public let path: String
    /// Whether the feed is a regular file (not a pipe or a device, which are read once and copied).
    public let isRegularFile: Bool
    private let descriptor: Int32
    private let identity: Identity

    /// What must not change between the readings of a file.
    private struct Identity: Equatable {
        var size: Int64
        var seconds: Int
        var nanoseconds: Int
    }

    /// Opens a feed file; `file` names it in errors (the path by default).
    ///
    /// - Throws: ``FeedError`` `unreadable` naming the path: there is no file, it is a directory, it cannot be opened
    ///   or read, or, not being a regular file, it holds more than ``FeedText/streamLimit`` bytes.
    public init(contentsOf url: URL, file: String? = nil) throws(FeedError) {
        let path = url.path
        let name = file ?? path
        self.path = path
        self.file = name
        func failure(_ message: String, _ hint: String) -> FeedError {
            FeedError(.unreadable, file: name, line: 0, column: 0, message, hint: hint)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw failure("there is no file at \(path)", "check the path of a feed")
        }
        guard !isDirectory.boolValue else {
            throw failure("\(path) is a directory, not a feed", "name a file inside it")
        }
        let source = open(path, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else {
            throw failure("\(path) cannot be opened for reading", "check the file's permissions")
        }
        var info = stat()
        guard fstat(source, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            close(source)
            throw failure("\(path) cannot be read (\(reason))", "check that it is a feed")
        }
        let opened: Int32
        if info.st_mode & S_IFMT == S_IFREG {
            opened = source
        } else {
            defer { close(source) }
            opened = try Self.copy(source, path: path, failure: failure)
        }
        isRegularFile = opened == source
        descriptor = opened
        identity = Self.identity(of: opened)
    }

    deinit {
        close(descriptor)
    }

    /// Copies a stream to an unlinked temporary file, as it is read, and returns the temporary file's descriptor.
    private static func copy(
        _ source: Int32, path: String, failure: (String, String) -> FeedError
    ) throws(FeedError) -> Int32 {
        var template = Array(
            FileManager.default.temporaryDirectory.appendingPathComponent("openstorekit-feed-XXXXXX").path.utf8CString)
        let copy = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard copy >= 0 else {
            throw failure(
                "\(path) is not a regular file, and no temporary copy of it can be made "
                    + "in \(FileManager.default.temporaryDirectory.path) (\(String(cString: strerror(errno))))",
                "set TMPDIR to a writable directory, or save the feed to a file")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        var buffer = [UInt8](repeating: 0, count: bufferSize)
        var total = 0
        do throws(FeedError) {
            while true {
                let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count >= 0 else {
                    throw failure(
                        "\(path) cannot be read (\(String(cString: strerror(errno))))", "check that it is a feed")
                }
                guard count > 0 else { break }
                total += count
                guard total <= FeedText.streamLimit else {
                    throw failure(
                        "\(path) holds more than \(FeedText.streamLimit) bytes, more than a feed read from a pipe or a "
                            + "device may", "save the feed to a file: a regular file may be of any size")
                }
                try buffer.withUnsafeBytes { bytes in
                    Result { () throws(FeedError) in try append(bytes.baseAddress!, count, to: copy) }
                }.get()
                // A NUL byte marks a binary file: reading stops (a device such as /dev/zero never ends); the
                // check reports its place.
                if buffer[0..<count].contains(0) { break }
            }
        } catch {
            close(copy)
            throw error
        }
        return copy

        func append(_ start: UnsafeRawPointer, _ count: Int, to copy: Int32) throws(FeedError) {
            var written = 0
            while written < count {
                let result = write(copy, start + written, count - written)
                if result < 0, errno == EINTR { continue }
                guard result > 0 else {
                    throw failure(
                        "\(path) cannot be copied to a temporary file (\(String(cString: strerror(errno))))",
                        "free space in \(FileManager.default.temporaryDirectory.path), or set TMPDIR")
                }
                written += result
            }
        }
    }

    private static func identity(of descriptor: Int32) -> Identity {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return Identity(size: -1, seconds: 0, nanoseconds: 0) }
        #if canImport(Darwin)
            let time = info.st_mtimespec
        #else
            let time = info.st_mtim
        #endif
        return Identity(size: Int64(info.st_size), seconds: Int(time.tv_sec), nanoseconds: Int(time.tv_nsec))
    }

    /// Reads the feed from its start, line by line, and hands each line to `body` with its number (1-based), without
    /// its line end.
    ///
    /// - Throws: ``FeedError`` `notText` for a line that is not UTF-8 text, `outOfBounds` for a line longer than
    ///   ``FeedParser/maximumLineLength`` bytes, `unreadable` when the file cannot be read or changed since it was
    ///   opened, or what `body` throws.
    public func forEachLine(_ body: (Int, Substring) throws(FeedError) -> Void) throws(FeedError) {
        try checkUnchanged()
        var reader = FeedLineReader(file: file)
        var buffer = [UInt8](repeating: 0, count: Self.bufferSize)
        var offset: off_t = 0
        // Only the bytes the file held when it was opened are read: a file that grows is not read past them, and the
        // check after the last read reports the change.
        while off_t(identity.size) > offset {
            let wanted = min(buffer.count, Int(off_t(identity.size) - offset))
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, wanted, offset) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else {
                throw FeedError(
                    .unreadable, file: file, line: 0, column: 0,
                    "\(path) cannot be read (\(String(cString: strerror(errno))))", hint: "check that it is a feed")
            }
            guard count > 0 else { break }
            offset += off_t(count)
            try buffer.withUnsafeBytes { bytes in
                Result { () throws(FeedError) in
                    try reader.read(UnsafeRawBufferPointer(rebasing: bytes[0..<count]), body)
                }
            }.get()
        }
        try checkUnchanged()
        try reader.finish(body)
    }

    private func checkUnchanged() throws(FeedError) {
        guard Self.identity(of: descriptor) == identity else {
            throw FeedError(
                .unreadable, file: file, line: 0, column: 0,
                "\(path) changed while it was read (a feed is read once to check it and once to run it)",
                hint: "do not change a feed while it runs; run it again")
        }
    }
}
