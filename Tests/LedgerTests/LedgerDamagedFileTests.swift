import Foundation
import TestSupport
import Testing

@testable import Ledger

/// Files that must be refused, reported clearly and never modified, reset or deleted.
@Suite struct LedgerDamagedFileTests {
    /// Creates a closed, checkpointed database holding enough records to span many pages.
    static func makeDatabase(at path: String, records: Int = 300) throws {
        let db = try LedgerDatabase(path: path)
        try db.write { txn in
            for index in 0..<records {
                try txn.put([UInt8](repeating: UInt8(index % 251), count: 600), forKey: "key\(index)", in: "c")
            }
        }
    }

    /// Overwrites `count` bytes at `offset` with a pattern that is not valid b-tree content.
    static func scribble(on path: String, at offset: UInt64, count: Int) throws {
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: Data((0..<count).map { UInt8(truncatingIfNeeded: $0 * 37 + 11) }))
    }

    /// Runs `open`, expects `code`, and checks that the directory holds exactly the same files with the same bytes.
    @discardableResult
    static func expectRefused(
        _ code: LedgerError.Code, in directory: TemporaryDirectory, path: String,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ open: () throws -> Void = {}
    ) throws -> LedgerError? {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        let before = names.map { contents(of: directory.file($0)) }
        let error = #expect(throws: LedgerError(code: code), sourceLocation: sourceLocation) {
            _ = try LedgerDatabase(path: path)
        }
        #expect(error?.path == path, sourceLocation: sourceLocation)
        #expect(error?.detail.contains(path) == true, sourceLocation: sourceLocation)
        let after = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(after == names, "files were created or removed", sourceLocation: sourceLocation)
        #expect(
            after.map { contents(of: directory.file($0)) } == before, "a file changed", sourceLocation: sourceLocation)
        return error
    }

    @Test func textFileIsRefusedUntouched() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("notes.txt")
        try Data("These are my notes, not a database.\n".utf8).write(to: URL(fileURLWithPath: path))
        let error = try Self.expectRefused(.notADatabase, in: directory, path: path)
        #expect(error?.code.rawValue == 2)
    }

    @Test func shortFileIsRefusedUntouched() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("short")
        try Data([0x7F]).write(to: URL(fileURLWithPath: path))
        try Self.expectRefused(.notADatabase, in: directory, path: path)
    }

    @Test func truncatedHeaderIsCorrupt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        try Self.makeDatabase(at: path)
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.truncate(atOffset: 60)
        try handle.close()
        let error = try Self.expectRefused(.corrupt, in: directory, path: path)
        #expect(error?.detail.contains("truncated") == true)
    }

    @Test func truncatedFileIsCorrupt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        try Self.makeDatabase(at: path)
        let size = try #require(contents(of: path)).count
        for cut in [size / 2, size / 2 + 100] {  // at a page boundary, and inside a page
            let copy = directory.file("cut-\(cut).sqlite")
            try #require(contents(of: path)).prefix(cut).write(to: URL(fileURLWithPath: copy))
            let error = try Self.expectRefused(.corrupt, in: directory, path: copy)
            #expect(error?.detail.contains("truncated") == true)
            #expect(error?.detail.contains("restore") == true)
        }
    }

    @Test func damagedPagesAreFoundOnOpen() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        try Self.makeDatabase(at: path)
        let size = UInt64(try #require(contents(of: path)).count)
        // Damage the middle of the file (b-tree pages), keep the header intact.
        try Self.scribble(on: path, at: size / 2, count: 8192)
        let error = try Self.expectRefused(.corrupt, in: directory, path: path)
        #expect(error?.detail.contains("quick_check") == true)
        #expect(error?.code.rawValue == 3)
    }

    @Test func damageFoundDuringUseIsReported() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        try Self.makeDatabase(at: path)
        let db = try LedgerDatabase(path: path)  // opens cleanly; the damage happens afterwards
        let size = UInt64(try #require(contents(of: path)).count)
        var offset: UInt64 = 4096
        while offset < size {  // damage every page after the first (the schema page)
            try Self.scribble(on: path, at: offset, count: 64)
            offset += 4096
        }
        let error = #expect(throws: LedgerError(code: .corrupt)) {
            try db.read { txn in _ = try txn.all(in: "c") }
        }
        #expect(error?.sqliteExtendedCode.map { $0 & 0xFF } == 11)  // SQLITE_CORRUPT
        #expect(error?.detail.contains(path) == true)
        #expect(error?.detail.contains("extended result code") == true)
        // Writing does not "repair" anything either; the file stays damaged, and reported, on the next open.
        _ = try? db.write { txn in try txn.put([1], forKey: "new", in: "c") }
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test func foreignSQLiteDatabaseIsRefusedUntouched() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("other-app.sqlite")
        do {
            let connection = try Connection(path: path)
            try connection.execute("CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('Ada');")
        }
        let error = try Self.expectRefused(.notALedger, in: directory, path: path)
        #expect(error?.detail.contains("not a Ledger database") == true)
    }

    @Test func directoryIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("folder")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        try Self.expectRefused(.cannotOpen, in: directory, path: path)
    }

    @Test func missingDirectoryCannotBeOpened() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("no/such/dir/state.sqlite")
        let error = #expect(throws: LedgerError(code: .cannotOpen)) { try LedgerDatabase(path: path) }
        #expect(error?.detail.contains(path) == true)
        #expect(error?.sqliteExtendedCode.map { $0 & 0xFF } == 14)  // SQLITE_CANTOPEN
    }

    @Test func emptyFileBecomesANewDatabase() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let db = try LedgerDatabase(path: path)
        try db.write { txn in try txn.put([1], forKey: "k", in: "c") }
        #expect(try db.read { txn in try txn.value(forKey: "k", in: "c") } == [1])
    }

    @Test func emptyFileWithALogIsCorrupt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        #expect(FileManager.default.createFile(atPath: path + "-wal", contents: Data(repeating: 1, count: 64)))
        try Self.expectRefused(.corrupt, in: directory, path: path)
    }

    @Test func integrityCheckCanBeTurnedOff() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        try Self.makeDatabase(at: path)
        let size = UInt64(try #require(contents(of: path)).count)
        try Self.scribble(on: path, at: size / 2, count: 8192)
        // Without quick_check the open succeeds (the header and schema are fine) ...
        let db = try LedgerDatabase(path: path, options: LedgerOptions(checksIntegrityOnOpen: false))
        // ... and the damage is reported when it is read.
        #expect(throws: LedgerError(code: .corrupt)) { try db.read { txn in _ = try txn.all(in: "c") } }
    }
}
