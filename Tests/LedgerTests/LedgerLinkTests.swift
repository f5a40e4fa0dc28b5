import Foundation
import TestSupport
import Testing

@testable import Ledger

/// A database path that is a symbolic link is the file it leads to; a link to nothing, and a `-wal` or `-shm` that
/// is a link, are refused without creating anything.
@Suite struct LedgerLinkTests {
    @Test func linkOpensTheFileItLeadsTo() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let real = directory.file("real.sqlite")
        let link = directory.file("link.sqlite")
        try LedgerDatabase(path: real).write { txn in try txn.setMeta(Int64(7), forKey: "seven") }
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.sqlite")
        #expect(try LedgerDatabase.resolvedPath(of: link) == real)
        do {
            let database = try LedgerDatabase(path: link)
            #expect(database.path == real)
            #expect(try database.read { txn in try txn.metaInteger(forKey: "seven") } == 7)
            try database.write { txn in try txn.setMeta(Int64(8), forKey: "eight") }
            #expect(FileManager.default.fileExists(atPath: real + "-wal"))
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names.allSatisfy { !$0.hasPrefix("link.sqlite-") }, "\(names)")
    }

    @Test func linkToNothingIsRefusedAndCreatesNothing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let link = directory.file("link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "missing.sqlite")
        let error = #expect(throws: LedgerError.self) { _ = try LedgerDatabase(path: link) }
        #expect(error?.code == .cannotOpen)
        #expect(error?.detail.contains("symbolic link") == true, "\(error?.detail ?? "")")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["link.sqlite"])
    }

    @Test(arguments: ["-wal", "-shm"])
    func linkedCompanionIsRefused(suffix: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("app.sqlite")
        try LedgerDatabase(path: path).write { txn in try txn.setMeta(Int64(1), forKey: "one") }
        let before = FileManager.default.contents(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path + suffix, withDestinationPath: "elsewhere")
        let error = #expect(throws: LedgerError.self) { _ = try LedgerDatabase(path: path) }
        #expect(error?.code == .cannotOpen)
        #expect(error?.detail.contains("symbolic link") == true, "\(error?.detail ?? "")")
        #expect(FileManager.default.contents(atPath: path) == before)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [
                "app.sqlite", "app.sqlite\(suffix)",
            ])
    }

    @Test(arguments: ["", "-wal"])
    func fileWithAnotherNameIsRefused(suffix: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("app.sqlite")
        let database = try LedgerDatabase(path: path)
        try database.write { txn in try txn.setMeta(Int64(1), forKey: "one") }
        let other = directory.file("other.sqlite")
        try FileManager.default.linkItem(atPath: path + suffix, toPath: other + suffix)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        let error = #expect(throws: LedgerError.self) { _ = try LedgerDatabase(path: suffix.isEmpty ? other : path) }
        #expect(error?.code == .cannotOpen)
        #expect(error?.detail.contains("2 names (hard links)") == true, "\(error?.detail ?? "")")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == names)
        withExtendedLifetime(database) {}
    }
}
