import Ledger
import TestSupport

/// The databases a test body that must hold on every backend runs on: a new in-memory SQLite database and, when the
/// build has the trait `Postgres` and ``TestPostgres/url`` names a server, a new database in a scratch schema of that
/// server (dropped afterwards).
enum TestDatabases {
    /// Calls `body` once with each database, each new and empty.
    static func each(
        options: LedgerOptions = LedgerOptions(), _ body: (LedgerDatabase) throws -> Void
    ) throws {
        try body(try LedgerDatabase.inMemory(options: options))
        #if Postgres
            if TestPostgres.url != nil {
                try withServerSchema { url in try body(try LedgerDatabase(url: url, options: options)) }
            }
        #endif
    }

    #if Postgres
        /// Calls `body` with the URL of a new, empty schema on the test server, and drops the schema afterwards
        /// (`body` must release the databases it opens on it before returning).
        static func withServerSchema<R>(_ body: (String) throws -> R) throws -> R {
            let scratch = try LedgerDatabase.makeScratchSchema(serverURL: TestPostgres.url ?? "")
            defer { scratch.drop() }
            return try body(scratch.url)
        }
    #endif
}
