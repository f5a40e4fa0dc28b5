internal import Foundation

extension LedgerDatabase {
    /// Whether `location` names a database on a PostgreSQL server: it starts with `postgresql://` or `postgres://`.
    ///
    /// A caller that accepts either a file path or a server URL (a command-line option, a configuration value) uses
    /// it to choose between `init(path:options:)` and `init(url:options:)`.
    /// - Parameter location: A file path or a URL.
    /// - Returns: `true` for a PostgreSQL connection URL.
    public static func isServerURL(_ location: String) -> Bool {
        location.hasPrefix("postgresql://") || location.hasPrefix("postgres://")
    }

    /// Opens the Ledger database in the current schema of a PostgreSQL server (the first schema of the connection's
    /// `search_path`), creating its tables if the schema has none of them.
    ///
    /// The database has the API and semantics of a file database, in tables named `ledger_*`. An existing database
    /// is checked before anything is written: its identity and schema version (a foreign or newer one is refused and
    /// left untouched) and its tables. It is used by one `LedgerDatabase` at a time, across processes: while this
    /// one is alive, another open of the same schema is refused with ``LedgerError/Code/inUse``. Needs the package
    /// trait `Postgres`; without it every URL is refused with ``LedgerError/Code/cannotOpen``.
    /// - Parameters:
    ///   - url: A libpq connection URL, `postgresql://[user[:password]@][host][:port][/database][?parameters]`
    ///     (for example `postgresql:///store?host=/var/run/postgresql`). Unless it says otherwise, the connection
    ///     gives up after 10 seconds (`connect_timeout`) and names itself `openstorekit` (`application_name`).
    ///     ``location`` holds it without its password.
    ///   - options: Durability and lock waiting, mapped to the server's settings as ``LedgerOptions`` describes.
    /// - Throws: ``LedgerError``: ``LedgerError/Code/cannotOpen`` (the server cannot be reached or refused the
    ///   connection), ``LedgerError/Code/inUse``, ``LedgerError/Code/notALedger``,
    ///   ``LedgerError/Code/newerSchema`` or ``LedgerError/Code/corrupt`` for a schema that is refused (it is left
    ///   untouched), ``LedgerError/Code/serverFailure`` and the like. Every error names the URL without its password.
    public convenience init(url: String, options: LedgerOptions = LedgerOptions()) throws(LedgerError) {
        do {
            try self.init(url: url, options: options, checkingExisting: { _ in })
        } catch let error as LedgerError {
            throw error
        } catch {
            // Without a caller's check, only LedgerError is thrown.
            throw LedgerError(code: .serverFailure, detail: "Opening \(Self.location(ofServerURL: url)): \(error)")
        }
    }

    /// Opens the Ledger database in the current schema of a PostgreSQL server as `init(url:options:)` does, letting
    /// the caller refuse an existing database before anything is written to it.
    ///
    /// When the schema already holds a Ledger database, `check` runs after Ledger's own checks (identity, schema
    /// version, tables) and before the first write, in one read-only transaction. If `check` throws, the database
    /// is left exactly as it was and the error is rethrown unchanged. `check` is not called for a schema without
    /// Ledger tables (a new database).
    /// - Parameters:
    ///   - url: A libpq connection URL, as for `init(url:options:)`.
    ///   - options: Durability and lock waiting.
    ///   - check: Reads the existing database and throws to refuse it.
    /// - Throws: What `check` threw, unchanged, or a ``LedgerError`` as `init(url:options:)` does.
    public convenience init(
        url: String, options: LedgerOptions = LedgerOptions(),
        checkingExisting check: (borrowing LedgerReadTransaction) throws -> Void
    ) throws {
        #if Postgres
            let connection = try ServerOpener.open(url: url, options: options, check: check)
            self.init(backend: .server(connection), location: connection.location, options: options)
        #else
            let location = Self.location(ofServerURL: url)
            throw LedgerError(
                code: .cannotOpen,
                detail: "Cannot open \(location): this build of OpenStoreKit has no PostgreSQL support. Build it with "
                    + "the package trait Postgres (`swift build --traits Postgres`, needs libpq), or use a file path.",
                path: location)
        #endif
    }

    /// The password `url` holds, as written in it (in the user information or a `password` parameter) and
    /// percent-decoded, to keep it out of messages.
    static func passwords(in url: String) -> [String] {
        let parts = ServerURLParts(url)
        var found =
            parts.userInfo.flatMap { info in info.firstIndex(of: ":").map { String(info[info.index(after: $0)...]) } }
            .map { [$0] } ?? []
        found += parts.parameters.filter(ServerURLParts.isPassword).map { String($0.drop { $0 != "=" }.dropFirst()) }
        return found.flatMap { [$0, $0.removingPercentEncoding ?? $0] }.filter { !$0.isEmpty }
    }

    /// The ``location`` a database opened from the server URL `url` has: `url` without its password (in the user
    /// information, `postgresql://user:secret@host/db` is `postgresql://user@host/db`, or a `password` parameter),
    /// safe to print; for naming a database before it is open.
    public static func location(ofServerURL url: String) -> String {
        let parts = ServerURLParts(url)
        guard let scheme = parts.scheme else { return url }
        var result = scheme
        if let info = parts.userInfo { result += (info.firstIndex(of: ":").map { info[..<$0] } ?? info) + "@" }
        result += parts.address
        guard parts.hasQuery else { return result }
        return result + "?" + parts.parameters.filter { !ServerURLParts.isPassword($0) }.joined(separator: "&")
    }
}
