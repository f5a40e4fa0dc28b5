public import Foundation
public import Testing

/// The PostgreSQL server tests of databases on a server use: the one the `OPENSTOREKIT_TEST_POSTGRES` environment
/// variable names by its URL. Tests that need it carry ``Testing/Trait/requiresPostgres``, so that without it they
/// are skipped with a reason instead of failing.
public enum TestPostgres {
    /// The environment variable that holds the server's URL.
    public static let environmentVariable = "OPENSTOREKIT_TEST_POSTGRES"

    /// The words every skip reason starts with; CI looks for them in the test output.
    public static let skipMarker = "needs a PostgreSQL server"

    /// The server's URL, or `nil` when the variable is unset or empty.
    public static var url: String? {
        guard let value = ProcessInfo.processInfo.environment[environmentVariable], !value.isEmpty else { return nil }
        return value
    }

    /// Why a test that needs a server does not run, and how to give it one.
    public static var skipReason: String {
        "\(skipMarker): set \(environmentVariable) to the URL of a PostgreSQL server the tests may create schemas "
            + "on, for example postgresql:///postgres?host=/tmp/x&user=postgres, and build with --traits Postgres"
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test or suite only when ``TestPostgres/url`` names a server; otherwise Swift Testing reports it
    /// skipped with ``TestPostgres/skipReason``.
    public static var requiresPostgres: Self {
        .enabled(if: TestPostgres.url != nil, Comment(rawValue: TestPostgres.skipReason))
    }
}
