extension LedgerError {
    /// The stable code for a PostgreSQL SQLSTATE. The server's message is only copied into the detail.
    static func code(forSQLState state: String) -> Code {
        switch state {
        case "53100": .diskFull
        case "25006", "42501": .readOnly
        case "55P03", "40001", "40P01": .busy
        case "25P02": .transactionAborted
        case "57P01", "57P02", "57P03", "53300": .cannotOpen
        case _ where state.hasPrefix("08") || state.hasPrefix("28") || state == "3D000": .cannotOpen
        case "58030": .ioError
        case "XX001", "XX002": .corrupt
        default: .serverFailure
        }
    }

    /// What the user should do about an error on a server with this code.
    static func serverAdvice(for code: Code) -> String {
        switch code {
        case .busy:
            "Another session holds a lock the statement needed for longer than the busy timeout (lock_timeout), or "
                + "the server cancelled a conflicting transaction; the transaction was not applied. Retry."
        case .readOnly: "The server refused to write (a read-only server or missing privileges); nothing was applied."
        case .diskFull: "The server's disk is full; the transaction was not applied."
        case .transactionAborted: "The transaction was aborted by an earlier error; nothing of it was applied."
        case .cannotOpen: "Check the server, the URL and the credentials."
        default: "The failed transaction was not applied."
        }
    }
}
