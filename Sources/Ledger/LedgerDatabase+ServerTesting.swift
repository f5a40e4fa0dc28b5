#if Postgres
    internal import Foundation

    extension LedgerDatabase {
        /// Creates a new, uniquely named, empty schema on the server `serverURL` names, for one test's database.
        /// - Returns: A URL that selects the schema (its `options` set `search_path`), and a function that drops the
        ///   schema and everything in it (call it once the databases on it are released).
        package static func makeScratchSchema(
            serverURL: String
        ) throws(LedgerError) -> (url: String, drop: @Sendable () -> Void) {
            let name = "ledger_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            _ = try runOnServer(serverURL, "CREATE SCHEMA \(name)")
            let separator = serverURL.contains("?") ? "&" : "?"
            return (
                serverURL + separator + "options=-csearch_path%3D\(name)",
                { _ = try? runOnServer(serverURL, "DROP SCHEMA IF EXISTS \(name) CASCADE") }
            )
        }

        /// Runs `sql` (one or more statements) on its own connection to `url` and returns the rows of the last
        /// statement as text (`nil` for NULL).
        @discardableResult
        package static func runOnServer(_ url: String, _ sql: String) throws(LedgerError) -> [[String?]] {
            let result = try ServerConnection(url: url).execute(sql)
            return (0..<result.rowCount).map { row in
                (0..<Int32(result.columnCount)).map { result.isNull($0, row: row) ? nil : result.text($0, row: row) }
            }
        }

        /// The server process of the database's connection, or `nil` for an SQLite database.
        package var serverProcessID: Int32? {
            guard case .server(let connection) = backend else { return nil }
            return connection.backendPID
        }
    }
#endif
