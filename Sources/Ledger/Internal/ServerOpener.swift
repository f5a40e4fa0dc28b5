#if Postgres
    /// Opens a Ledger database on a PostgreSQL server: connects, takes the database for this user alone, checks an
    /// existing one without writing to it, or creates the tables of a new one.
    ///
    /// Order matters for "refused databases are not modified": the session's settings are set (they change nothing
    /// stored), the advisory lock that makes the database one user's is taken (it writes nothing either), the
    /// identity, version and tables are read in a read-only transaction, and the caller's check runs in that same
    /// transaction. Only a schema without any `ledger_*` table is written to: its tables are created in one
    /// transaction, under a transaction-level advisory lock so that two processes do not both create them.
    enum ServerOpener {
        /// The high 32 bits of the advisory lock key that makes a database one user's ("OSKL"); the low 32 bits are
        /// the identity table's oid, so that databases in different schemas of one server do not collide.
        static let useLockClass: Int64 = 0x4F53_4B4C
        /// The high 32 bits of the advisory lock key taken while creating tables ("OSKC"); the low 32 bits are the
        /// schema's oid.
        static let createLockClass: Int64 = 0x4F53_4B43

        /// Opens the database `url` names; `check` reads an existing one before anything is written. What it throws
        /// is rethrown unchanged.
        static func open(
            url: String, options: LedgerOptions, check: DatabaseOpener.Check
        ) throws -> ServerConnection {
            let connection = try ServerConnection(url: url)
            let place = "'\(connection.location)'"
            let synchronous = options.synchronous == .full ? "on" : "off"
            _ = try connection.execute(
                "SET synchronous_commit = \(synchronous); SET lock_timeout = \(max(1, options.busyTimeoutMilliseconds))",
                context: "Configuring the session")
            let schemaRows = try connection.execute(
                "SELECT current_schema(), (SELECT oid FROM pg_namespace WHERE nspname = current_schema())", [])
            guard schemaRows.rowCount == 1, !schemaRows.isNull(0) else {
                throw LedgerError(
                    code: .cannotOpen,
                    detail: "\(place) names no existing schema: none of the schemas of its search_path exists. "
                        + "Create the schema, or set search_path (for example with "
                        + "options=-csearch_path%3Dmyschema in the URL).",
                    path: connection.location)
            }
            let schema = schemaRows.text(0)
            let schemaOID = schemaRows.int64(1)
            var created = false
            for _ in 0..<2 {
                let tables = try ledgerTables(connection, schemaOID: schemaOID)
                if let identity = tables[ServerSchema.identityTable] {
                    try takeForThisUser(connection, identityOID: identity, place: place)
                    // The caller's check reads existing databases only, not the one just created here.
                    try validate(
                        connection, tables: Set(tables.keys), schemaOID: schemaOID, schema: schema, place: place,
                        check: created ? { _ in } : check)
                    return connection
                }
                guard tables.isEmpty else {
                    throw LedgerError(
                        code: .corrupt,
                        detail: "Schema '\(schema)' of \(place) has the Ledger tables "
                            + "\(tables.keys.sorted().joined(separator: ", ")) but no \(ServerSchema.identityTable): "
                            + "a damaged or half-removed Ledger database. It has not been modified: restore it, or "
                            + "use another schema.",
                        path: connection.location)
                }
                created = try create(connection, schemaOID: schemaOID)
            }
            throw LedgerError(
                code: .serverFailure,
                detail: "The Ledger tables of \(place) were created but cannot be found in schema '\(schema)'.",
                path: connection.location)
        }

        /// The `ledger_*` tables (or other relations so named) of the schema, with their oids.
        private static func ledgerTables(
            _ connection: ServerConnection, schemaOID: Int64
        ) throws(LedgerError) -> [String: Int64] {
            let rows = try connection.execute(
                "SELECT relname::text, oid::int8 FROM pg_class WHERE relnamespace = $1::int8::oid AND relname::text = "
                    + "ANY (ARRAY['\(ServerSchema.tables.sorted().joined(separator: "', '"))'])",
                [.integer(schemaOID)])
            var tables: [String: Int64] = [:]
            for row in 0..<rows.rowCount { tables[rows.text(0, row: row)] = rows.int64(1, row: row) }
            return tables
        }

        /// How long opening waits for the database's advisory lock before refusing it as in use: long enough for the
        /// server to end the session of a process killed an instant before, short enough to refuse a live user at once.
        static let holderGraceMilliseconds = 1000

        /// Takes the session-level advisory lock that makes the database this connection's until it closes, or
        /// refuses the database as in use, naming the server process holding it when the server says.
        private static func takeForThisUser(
            _ connection: ServerConnection, identityOID: Int64, place: String
        ) throws(LedgerError) {
            let key = useLockClass << 32 | identityOID
            // Waits a moment for a holder that is going away (a process killed an instant ago, whose server process
            // has not yet read the disconnection), not for one that is alive: a second user is refused within it.
            _ = try connection.execute("BEGIN")
            do {
                _ = try connection.execute("SET LOCAL lock_timeout = '\(holderGraceMilliseconds)ms'")
                _ = try connection.execute("SELECT pg_advisory_lock($1::int8)", [.integer(key)])
                _ = try connection.execute("COMMIT")  // a session-level lock outlives the transaction it was taken in
                return
            } catch let error where error.code == .busy {
                _ = try? connection.execute("ROLLBACK")
            } catch {
                _ = try? connection.execute("ROLLBACK")
                throw error
            }
            var holder = ""
            if let rows = try? connection.execute(
                "SELECT l.pid::int8, coalesce(a.application_name, '')::text, coalesce(a.client_addr::text, 'local') "
                    + "FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' "
                    + "AND l.granted AND l.classid::int8 = $1::int8 AND l.objid::int8 = $2::int8 AND l.objsubid = 1",
                [.integer(useLockClass), .integer(identityOID)]), rows.rowCount > 0
            {
                let name = rows.text(1)
                holder =
                    " (server process \(rows.int64(0))"
                    + (name.isEmpty ? "" : ", application '\(name)'") + ", client \(rows.text(2)))"
            }
            throw LedgerError(
                code: .inUse,
                detail: "\(place) is in use by another process\(holder): a Ledger database on a server has one user "
                    + "at a time. It has not been modified. Stop the other user (or close its database) and retry.",
                path: connection.location)
        }

        /// Checks identity, version and tables in a read-only transaction, then runs `check` in it.
        private static func validate(
            _ connection: ServerConnection, tables: Set<String>, schemaOID: Int64, schema: String, place: String,
            check: DatabaseOpener.Check
        ) throws {
            try connection.run(.beginDeferred)
            defer { try? connection.run(.rollback) }  // read-only: nothing to commit
            let identity: ServerResult
            do {
                identity = try connection.execute(
                    "SELECT application_id::int8, schema_version::int8 FROM \(ServerSchema.identityTable)", [])
            } catch {
                throw LedgerError(
                    code: .notALedger,
                    detail: "Schema '\(schema)' of \(place) has a table \(ServerSchema.identityTable) that is not a "
                        + "Ledger identity (\(error.detail)). It has not been modified; use another schema.",
                    path: connection.location)
            }
            guard identity.rowCount == 1, !identity.isNull(0), !identity.isNull(1) else {
                throw LedgerError(
                    code: .corrupt,
                    detail: "\(ServerSchema.identityTable) in schema '\(schema)' of \(place) has \(identity.rowCount) "
                        + "rows instead of one. The database has not been modified.",
                    path: connection.location)
            }
            let applicationID = identity.int64(0)
            let version = identity.int64(1)
            guard applicationID == Schema.applicationID else {
                throw LedgerError(
                    code: .notALedger,
                    detail: "Schema '\(schema)' of \(place) is not a Ledger database (application id "
                        + "\(applicationID), schema version \(version)). It has not been modified; use another schema.",
                    path: connection.location)
            }
            guard version <= Schema.currentVersion else {
                throw LedgerError(
                    code: .newerSchema,
                    detail: "Schema '\(schema)' of \(place) has schema version \(version), written by a newer "
                        + "release; this release reads schema versions up to \(Schema.currentVersion). It has not "
                        + "been modified: open it with the newer release, or use another schema.",
                    path: connection.location)
            }
            guard version >= ServerSchema.firstVersion else {
                throw LedgerError(
                    code: .corrupt,
                    detail: "Schema '\(schema)' of \(place) claims schema version \(version), which no database on a "
                        + "server has (they begin at \(ServerSchema.firstVersion)). It has not been modified.",
                    path: connection.location)
            }
            let missing = ServerSchema.tables.subtracting(tables).sorted()
            guard missing.isEmpty else {
                throw LedgerError(
                    code: .corrupt,
                    detail: "Schema '\(schema)' of \(place) is a Ledger database of schema version \(version) without "
                        + "the tables \(missing.joined(separator: ", ")). It has not been modified: restore it from a "
                        + "backup, or use another schema.",
                    path: connection.location)
            }
            try checkColumns(connection, schemaOID: schemaOID, schema: schema, place: place)
            try check(LedgerReadTransaction(store: .server(ServerStore(connection: connection))))
        }

        /// Refuses tables whose columns are not those ``ServerSchema/create`` makes (one missing, or of another
        /// type), naming the first such column. Other columns are let be.
        private static func checkColumns(
            _ connection: ServerConnection, schemaOID: Int64, schema: String, place: String
        ) throws(LedgerError) {
            let rows = try connection.execute(
                "SELECT c.relname::text, a.attname::text, format_type(a.atttypid, a.atttypmod)::text FROM pg_attribute a "
                    + "JOIN pg_class c ON c.oid = a.attrelid WHERE c.relnamespace = $1::int8::oid AND a.attnum > 0 "
                    + "AND NOT a.attisdropped AND c.relname::text = ANY (ARRAY['"
                    + ServerSchema.tables.sorted().joined(separator: "', '") + "'])",
                [.integer(schemaOID)])
            var found: [String: [String: String]] = [:]
            for row in 0..<rows.rowCount {
                found[rows.text(0, row: row), default: [:]][rows.text(1, row: row)] = rows.text(2, row: row)
            }
            for table in ServerSchema.columns.keys.sorted() {
                for (column, type) in ServerSchema.columns[table, default: [:]].sorted(by: { $0.key < $1.key }) {
                    let actual = found[table]?[column]
                    guard actual != type else { continue }
                    throw LedgerError(
                        code: .corrupt,
                        detail: "Table \(table) in schema '\(schema)' of \(place) "
                            + (actual.map { "has column \(column) of type \($0), not \(type)" }
                                ?? "has no column \(column) (\(type))")
                            + ": it was altered by hand, or is not a Ledger table. It has not been modified: "
                            + "restore it from a backup, or use another schema.",
                        path: connection.location)
                }
            }
        }

        /// Creates the tables of a new database in one transaction, unless another process created them meanwhile.
        /// - Returns: Whether this call created them.
        private static func create(_ connection: ServerConnection, schemaOID: Int64) throws(LedgerError) -> Bool {
            try connection.run(.beginImmediate)
            do throws(LedgerError) {
                _ = try connection.execute(
                    "SELECT pg_advisory_xact_lock($1::int8)", [.integer(createLockClass << 32 | schemaOID)])
                let isNew = try ledgerTables(connection, schemaOID: schemaOID).isEmpty
                if isNew { _ = try connection.execute(ServerSchema.create, context: "Creating the Ledger tables") }
                try connection.run(.commit)
                return isNew
            } catch {
                if connection.hasTransaction { try? connection.run(.rollback) }
                throw error
            }
        }
    }
#endif
