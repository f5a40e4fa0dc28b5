import Testing

@testable import Ledger

/// Server URLs, in every build: which locations are URLs, what is printed of them, and what a build without the trait
/// `Postgres` says.
@Suite struct LedgerServerURLTests {
    @Test func serverURLsAreRecognised() {
        #expect(LedgerDatabase.isServerURL("postgresql:///store?host=/tmp"))
        #expect(LedgerDatabase.isServerURL("postgres://user@host/store"))
        #expect(!LedgerDatabase.isServerURL("state.sqlite"))
        #expect(!LedgerDatabase.isServerURL("/var/lib/postgresql://x"))
    }

    @Test(arguments: [
        ("postgresql://user:pw@host:5432/db?sslmode=require", "postgresql://user@host:5432/db?sslmode=require"),
        ("postgresql://user:p%40ss@host/db", "postgresql://user@host/db"),
        ("postgresql:///db?host=/tmp&password=pw&user=u", "postgresql:///db?host=/tmp&user=u"),
        ("postgresql://host/db", "postgresql://host/db"),
        ("postgresql://user@host", "postgresql://user@host"),
        // libpq ends the user information at the first "/" only: "?" and "#" may be part of a password.
        ("postgresql://user:pa?ss@host/db", "postgresql://user@host/db"),
        ("postgresql://user:pa#ss@host/db?sslmode=disable", "postgresql://user@host/db?sslmode=disable"),
        ("postgresql://user:p?w&password=x@host", "postgresql://user@host"),
        // libpq percent-decodes parameter names too.
        ("postgresql:///db?%70assword=pw&user=u", "postgresql:///db?user=u"),
        ("postgresql:///db?PASSWORD=pw", "postgresql:///db?"),
    ])
    func passwordsAreRemoved(url: String, redacted: String) {
        #expect(LedgerDatabase.location(ofServerURL: url) == redacted)
    }

    @Test(arguments: [
        ("postgresql://user:pa?ss@host/db", "pa?ss"),
        ("postgresql://user:pa#ss@host/db", "pa#ss"),
        ("postgresql:///db?%70assword=s%65cret", "secret"),
    ])
    func passwordsAreFoundWhereLibpqReadsThem(url: String, password: String) {
        #expect(LedgerDatabase.passwords(in: url).contains(password))
    }

    @Test func errorCodesOfSQLStates() {
        #expect(LedgerError.code(forSQLState: "53100") == .diskFull)
        #expect(LedgerError.code(forSQLState: "25006") == .readOnly)
        #expect(LedgerError.code(forSQLState: "42501") == .readOnly)
        #expect(LedgerError.code(forSQLState: "55P03") == .busy)
        #expect(LedgerError.code(forSQLState: "40001") == .busy)
        #expect(LedgerError.code(forSQLState: "40P01") == .busy)
        #expect(LedgerError.code(forSQLState: "08006") == .cannotOpen)
        #expect(LedgerError.code(forSQLState: "23514") == .serverFailure)
    }

    #if !Postgres
        @Test func aBuildWithoutTheTraitRefusesURLs() throws {
            let error = try #require(throws: LedgerError.self) {
                try LedgerDatabase(url: "postgresql://user:pw@host/db")
            }
            #expect(error.code == .cannotOpen)
            #expect(error.detail.contains("--traits Postgres"))
            #expect(error.path == "postgresql://user@host/db")
            #expect(!error.detail.contains("pw"))
        }
    #endif
}
