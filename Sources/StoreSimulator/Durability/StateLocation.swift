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

    /// A server database's URL as messages may show it: without the password of its user information
    /// (`postgresql://user:secret@host/db` is `postgresql://user@host/db`) or a `password` parameter of its query; the
    /// text Ledger's `LedgerDatabase.location` holds once the database is open (it is needed before, to name the
    /// database in this process's registry and in what refuses it).
    static func redacting(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        var result = String(url[..<schemeEnd.upperBound])
        let rest = url[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") {
            let user = authority[..<at]
            result += user.firstIndex(of: ":").map { String(user[..<$0]) } ?? String(user)
            result += authority[at...]
        } else {
            result += authority
        }
        let tail = rest[authorityEnd...]
        guard let question = tail.firstIndex(of: "?") else { return result + tail }
        result += tail[...question]
        let parameters = tail[tail.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false)
        result += parameters.filter { !$0.lowercased().hasPrefix("password=") }.joined(separator: "&")
        return result
    }
}
