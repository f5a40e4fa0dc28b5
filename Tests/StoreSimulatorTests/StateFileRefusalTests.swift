import Foundation
import StoreModels
import TestSupport
import Testing

@testable import Ledger
@testable import StoreSimulator

/// Every kind of state file a store refuses, in every journal mode it can be found in: the store names the file and
/// what to do, and leaves the file, its `-wal` and its `-shm` byte for byte as they were, and creates or removes no
/// file (no `-wal`, `-shm` or lock file appears).
@Suite("Refused state files are not changed")
struct StateFileRefusalTests {
    /// How the file is found on disk.
    enum Mode: String, CaseIterable, CustomTestStringConvertible {
        /// A rollback-journal (`journal_mode = DELETE`) database, as another SQLite tool may leave it.
        case delete
        /// A write-ahead-log database closed cleanly: no `-wal`, no `-shm`.
        case wal
        /// A write-ahead-log database whose last writer is still running or was killed: with its `-wal` (holding
        /// the latest changes) and `-shm`.
        case walWithLog
        /// The same with its `-wal` and no `-shm` (copied without it, say).
        case walWithoutIndex

        var testDescription: String { rawValue }
    }

    /// What is wrong with the file.
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case newerStoreFormat
        case damagedTable
        case unreadableJournalEntry
        case newerLedgerSchema
        case foreignApplicationID
        case damagedPages
        case notSQLite
        case emptyWithLog
        case truncated

        var testDescription: String { rawValue }

        /// The error the store reports.
        var code: StoreSimulatorError.Code {
            switch self {
            case .newerStoreFormat, .newerLedgerSchema: .stateTooNew
            case .damagedTable, .unreadableJournalEntry, .damagedPages, .emptyWithLog, .truncated: .stateCorrupt
            case .foreignApplicationID, .notSQLite: .stateUnavailable
            }
        }

        /// Words of the message that say what to do.
        var advice: String {
            switch self {
            case .newerStoreFormat, .newerLedgerSchema: "newer release"
            case .foreignApplicationID, .notSQLite: "Check the path"
            default: "backup"
            }
        }

        /// Damage made with SQL, through a connection on the file.
        var sql: String? {
            switch self {
            case .newerStoreFormat: "UPDATE meta SET value = 3 WHERE key = 'openstorekit.store.format'"
            case .damagedTable:
                "UPDATE records SET value = X'7B7D' WHERE collection = 'openstorekit.store.records' AND id = "
                    + "(SELECT min(id) FROM records WHERE collection = 'openstorekit.store.records')"
            case .unreadableJournalEntry: "INSERT INTO log (name, payload) VALUES ('openstorekit.store', X'C8010203')"
            case .newerLedgerSchema: "PRAGMA user_version = 99"
            case .foreignApplicationID: "PRAGMA application_id = 42"
            default: nil
            }
        }
    }

    /// Makes a state file with some history at `path`, damaged as `kind` says and in journal mode `mode`.
    static func makeFile(_ kind: Kind, _ mode: Mode, at path: String, in directory: TemporaryDirectory) throws {
        let original = directory.file("original.sqlite")
        try StateFileTests.makeStateFile(at: original, purchases: 40)
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: original + suffix) }
        }
        if mode == .walWithLog || mode == .walWithoutIndex {
            // Damage it through a connection that stays open, so the damage is in the -wal, and copy the three files
            // as they are while it is open.
            let connection = try Connection(path: original)
            try connection.execute("PRAGMA wal_autocheckpoint = 0")
            try connection.execute("CREATE TABLE app_data (value); INSERT INTO app_data VALUES (1)")
            if let sql = kind.sql { try connection.execute(sql) }
            for suffix in mode == .walWithLog ? ["", "-wal", "-shm"] : ["", "-wal"] {
                try FileManager.default.copyItem(atPath: original + suffix, toPath: path + suffix)
            }
            withExtendedLifetime(connection) {}
        } else {
            do {
                let connection = try Connection(path: original)
                if let sql = kind.sql { try connection.execute(sql) }
                if mode == .delete { _ = try connection.textColumn("PRAGMA journal_mode = DELETE") }
            }
            try FileManager.default.copyItem(atPath: original, toPath: path)
        }
        let size = try #require(FileManager.default.contents(atPath: path)).count
        switch kind {
        case .damagedPages:
            let handle = try #require(FileHandle(forUpdatingAtPath: path))
            try handle.seek(toOffset: UInt64(size / 2))
            try handle.write(contentsOf: Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 * 37 + 11) }))
            try handle.close()
        case .notSQLite:
            try Data("Not a database: my shopping list.\n".utf8).write(to: URL(fileURLWithPath: path))
        case .emptyWithLog:
            try Data().write(to: URL(fileURLWithPath: path))
            if mode != .walWithLog && mode != .walWithoutIndex {
                try Data(repeating: 7, count: 4096).write(to: URL(fileURLWithPath: path + "-wal"))
            }
        case .truncated:
            let handle = try #require(FileHandle(forUpdatingAtPath: path))
            try handle.truncate(atOffset: UInt64(size / 2))
            try handle.close()
        default:
            break
        }
    }

    /// The name and bytes of every file in the directory.
    static func files(in directory: TemporaryDirectory) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            result[name] = FileManager.default.contents(atPath: directory.file(name))
        }
        return result
    }

    @Test("A refused state file is left byte for byte as it was", arguments: Kind.allCases, Mode.allCases)
    func refusedUnchanged(kind: Kind, mode: Mode) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        try Self.makeFile(kind, mode, at: path, in: directory)
        let journalMode = try #require(FileManager.default.contents(atPath: path)).prefix(20).suffix(2)
        if kind.sql != nil || kind == .damagedPages {
            // The file is in the mode it claims: bytes 18 and 19 of the header are 1 (rollback journal) or 2 (WAL).
            #expect(Array(journalMode) == (mode == .delete ? [1, 1] : [2, 2]))
        }
        let hasLog = mode == .walWithLog || mode == .walWithoutIndex || kind == .emptyWithLog
        #expect(FileManager.default.fileExists(atPath: path + "-wal") == hasLog)
        #expect(FileManager.default.fileExists(atPath: path + "-shm") == (mode == .walWithLog))
        let before = try Self.files(in: directory)
        let error = #expect(throws: StoreSimulatorError(kind.code, "")) {
            _ = try SimulatedStore(statePath: path, lane: .manual)
        }
        #expect(error?.detail.contains(path) == true, "\(error?.detail ?? "")")
        #expect(error?.detail.contains(kind.advice) == true, "\(error?.detail ?? "")")
        let after = try Self.files(in: directory)
        #expect(after.keys.sorted() == before.keys.sorted(), "files appeared or disappeared")
        // The -shm file (SQLite's shared-memory index of the -wal) too: the checks open it read-only.
        for (name, bytes) in before {
            #expect(after[name] == bytes, "\(name) changed")
        }
    }

    @Test("An empty state file with no log is what a process killed while creating it leaves: it becomes a new store")
    func emptyFileIsANewStore() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let store = try SimulatedStore(statePath: path, lane: .manual)
        #expect(store.allTransactions().isEmpty)
        try store.close()
        #expect(try #require(FileManager.default.contents(atPath: path)).count > 0)
    }
}
