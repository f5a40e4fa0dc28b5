import Foundation

/// Where a durable store's state is, as its messages name it: a state file, or a Ledger database on a server.
struct StateLocation: Hashable, Sendable {
    /// The absolute path of the state file, or the server database's URL without its password (Ledger's `location`):
    /// what every message names, never a password.
    let name: String
    /// Whether the state is in a file (`false`: a database on a server).
    let isFile: Bool

    /// "The file was not changed." or "The database was not changed."
    var unchanged: String { isFile ? "The file was not changed." : "The database was not changed." }

    /// What to do with state that cannot be used: move the file aside with its companions, or leave the database and
    /// use another one.
    var recovery: String {
        isFile
            ? "move it aside (with its -wal and -shm files) and restore a backup, or start from a new path"
            : "restore a backup of it, or start from another database (or schema)"
    }

    /// "state file" or "database", for messages.
    var noun: String { isFile ? "state file" : "database" }
}
