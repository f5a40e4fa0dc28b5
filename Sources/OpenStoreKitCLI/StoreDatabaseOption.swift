import Ledger

/// Where `run` and `serve` keep their store: `--state PATH`, or `--database PATH|URL` (a state file's path, as
/// `--state` takes it, or a Ledger database on a PostgreSQL server). The two are exclusive.
struct StoreDatabaseOption {
    /// The path or URL given.
    let value: String
    /// The option it was given with: `--state` or `--database`.
    let option: String

    /// Whether it is a server database's URL rather than a state file's path.
    var isServer: Bool { LedgerDatabase.isServerURL(value) }

    /// The option of `options`, if one was given; `nil` when neither was.
    ///
    /// - Throws: ``UsageError`` when both are given, or when a server URL is given to a build without the package
    ///   trait `Postgres` (before anything is created). The message never shows the URL, which may hold a password.
    init?(_ options: Arguments, command: String) throws(UsageError) {
        let state = options.values["--state"]
        let database = options.values["--database"]
        if state != nil, database != nil {
            throw UsageError(
                "--state and --database cannot be used together: --database takes what --state takes (a state "
                    + "file's path) and a server database's URL; give one of them")
        }
        guard let value = state ?? database else { return nil }
        self.value = value
        self.option = state != nil ? "--state" : "--database"
        guard isServer else { return }
        guard option == "--database" else {
            throw UsageError(
                "--state takes a state file's path; give a server database's URL (postgresql://...) to --database")
        }
        #if !Postgres
            throw UsageError(Self.needsTrait(command))
        #endif
    }

    /// What a build without the package trait `Postgres` says of a server URL.
    static func needsTrait(_ command: String) -> String {
        "\(command) --database: a postgresql:// URL needs a build with the package trait Postgres and "
            + "libpq's headers (apt-get install libpq-dev): swift build --traits Postgres --scratch-path "
            + ".build/postgres (with the server: --traits Server,Postgres --scratch-path .build/server-postgres). "
            + "Nothing was created."
    }
}
