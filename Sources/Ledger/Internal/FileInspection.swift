internal import Foundation

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// Checks a database file's bytes before SQLite opens it, so that a file that is not a database, or a damaged or
/// truncated one, is refused without SQLite touching it.
enum FileInspection {
    /// What is at the path.
    enum Kind: Equatable {
        /// Nothing: a new database will be created.
        case missing
        /// An empty file with no write-ahead log: left by a process killed while creating the database, or made by
        /// `touch`. It holds no data, so it is initialized as a new database.
        case empty
        /// A file whose header looks like an SQLite database.
        case database
    }

    /// The first 16 bytes of every SQLite database file.
    static let magic: [UInt8] = Array("SQLite format 3\0".utf8)

    /// Inspects `path` and its write-ahead log (`path-wal`).
    /// - Throws: ``LedgerError/Code/cannotOpen``, ``LedgerError/Code/notADatabase`` or ``LedgerError/Code/corrupt``.
    static func inspect(path: String) throws(LedgerError) -> Kind {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return .missing }
        guard !isDirectory.boolValue else {
            throw LedgerError(
                code: .cannotOpen, detail: "'\(path)' is a directory, not a database file. Give the path of a file.",
                path: path)
        }
        let size = try fileSize(path)
        let walSize = FileManager.default.fileExists(atPath: path + "-wal") ? try fileSize(path + "-wal") : 0
        if size == 0 {
            guard walSize == 0 else {
                throw corrupt(
                    path, "the database file is empty but its write-ahead log '\(path)-wal' holds \(walSize) bytes")
            }
            return .empty
        }
        let header = try readHeader(path)
        let prefix = min(header.count, magic.count)
        guard header.prefix(prefix).elementsEqual(magic.prefix(prefix)) else {
            throw LedgerError(
                code: .notADatabase,
                detail: "'\(path)' is not an SQLite database (its first bytes are not \"SQLite format 3\"). "
                    + "Check the path; the file has not been modified.",
                path: path)
        }
        guard header.count == 100 else {
            throw corrupt(path, "the file is \(size) bytes long, shorter than the 100-byte database header (truncated)")
        }
        let rawPageSize = Int(header[16]) << 8 | Int(header[17])
        let pageSize = rawPageSize == 1 ? 65536 : rawPageSize
        guard pageSize >= 512, pageSize <= 65536, pageSize & (pageSize - 1) == 0 else {
            throw corrupt(path, "the header gives an invalid page size (\(rawPageSize))")
        }
        // With a non-empty write-ahead log, newer pages may live in the log and the file may legitimately be
        // shorter; `PRAGMA quick_check` examines that case. Without one, the file must hold every page.
        guard walSize == 0 else { return .database }
        guard size % Int64(pageSize) == 0 else {
            throw corrupt(
                path, "the file is \(size) bytes long, not a whole number of \(pageSize)-byte pages (truncated)")
        }
        let changeCounter = header[24..<28]
        let validFor = header[92..<96]
        let pageCount = header[28..<32].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        if changeCounter.elementsEqual(validFor), pageCount > 0, pageCount * Int64(pageSize) > size {
            throw corrupt(
                path,
                "the header says the database has \(pageCount) pages of \(pageSize) bytes but the file is only "
                    + "\(size) bytes long (truncated)")
        }
        return .database
    }

    /// `path` (absolute) with its symbolic links resolved, so that a database reached through a link is opened, checked
    /// and kept (its `-wal` and `-shm` beside it, as SQLite keeps them) at the file the link points to. A missing
    /// file keeps its name, in its directory's real path. A link that leads nowhere is refused: opening it would
    /// create a file wherever it points.
    /// - Throws: ``LedgerError/Code/cannotOpen`` for a link to nothing (or in a loop).
    static func resolve(_ path: String) throws(LedgerError) -> String {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else {
            let url = URL(fileURLWithPath: path)
            guard let directory = realPath(url.deletingLastPathComponent().path) else { return path }
            return (directory == "/" ? "" : directory) + "/" + url.lastPathComponent
        }
        guard let real = realPath(path) else {
            let failure = errno
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
            throw LedgerError(
                code: .cannotOpen,
                detail: "'\(path)' is a symbolic link to '\(target)', which cannot be reached "
                    + "(\(String(cString: strerror(failure)))). A database is opened through a link only when the "
                    + "link leads to one: fix or remove the link. No file was created.",
                path: path)
        }
        return real
    }

    /// The canonical path of an existing file or directory (`realpath`), or `nil`.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Refuses a `-wal` or `-shm` beside the database that is not a regular file (a symbolic link, say): SQLite would
    /// follow it or fail after creating the other one. Refuses the database, its `-wal` or its `-shm` when it has more
    /// than one name (a hard link): SQLite keeps the write-ahead log beside the name it was opened by, so a process
    /// opening another name would neither see the log nor be kept out by the lock taken on this name, and the two
    /// would damage the file.
    static func checkCompanions(of path: String) throws(LedgerError) {
        for companion in [path + "-wal", path + "-shm"] {
            var info = stat()
            guard lstat(companion, &info) == 0, info.st_mode & S_IFMT != S_IFREG else { continue }
            let what = info.st_mode & S_IFMT == S_IFLNK ? "a symbolic link" : "not a regular file"
            throw LedgerError(
                code: .cannotOpen,
                detail: "'\(companion)' is \(what); SQLite keeps the write-ahead log and its index as regular files "
                    + "beside the database. Remove it (and find out who made it); the database has not been modified.",
                path: path)
        }
        for file in [path, path + "-wal", path + "-shm"] {
            var info = stat()
            guard lstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_nlink > 1 else { continue }
            throw LedgerError(
                code: .cannotOpen,
                detail: "'\(file)' has \(info.st_nlink) names (hard links). A database is kept under one name: SQLite "
                    + "keeps its write-ahead log beside the name it is opened by, so two names would damage it. Remove "
                    + "the other names, or make a copy (cp) to open under another path; the database has not been "
                    + "modified.",
                path: path)
        }
    }

    /// A ``LedgerError/Code/corrupt`` error for `path` with `reason`.
    static func corrupt(_ path: String, _ reason: String) -> LedgerError {
        LedgerError(
            code: .corrupt, detail: "'\(path)' is damaged: \(reason). " + LedgerError.advice(for: .corrupt), path: path)
    }

    private static func fileSize(_ path: String) throws(LedgerError) -> Int64 {
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            return (attributes[.size] as? NSNumber)?.int64Value ?? 0
        } catch {
            throw LedgerError(
                code: .cannotOpen,
                detail: "Cannot read the attributes of '\(path)': \(error). "
                    + LedgerError.advice(for: .cannotOpen), path: path)
        }
    }

    private static func readHeader(_ path: String) throws(LedgerError) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw LedgerError(
                code: .cannotOpen, detail: "Cannot open '\(path)' for reading. " + LedgerError.advice(for: .cannotOpen),
                path: path)
        }
        defer { try? handle.close() }
        do {
            return [UInt8](try handle.read(upToCount: 100) ?? Data())
        } catch {
            throw LedgerError(
                code: .ioError,
                detail: "Cannot read the header of '\(path)': \(error). "
                    + LedgerError.advice(for: .ioError), path: path)
        }
    }
}
