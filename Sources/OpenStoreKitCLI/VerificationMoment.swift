import FeedRunner
import Foundation

/// When a `receipt verify` or `jws verify` checks certificate validity: the `--at` option.
enum VerificationMoment: Equatable {
    /// When the receipt or JWS was made (`--at creation`, the default).
    case creation
    /// The current time (`--at now`).
    case now
    /// A given moment (`--at 2024-02-23T17:27:16Z`).
    case date(Date)
}

extension Arguments {
    /// The moment `--at` names.
    func verificationMoment() throws(UsageError) -> VerificationMoment {
        switch values["--at"] {
        case nil, "creation": return .creation
        case "now": return .now
        case let text?:
            guard let date = ISO8601.parse(text) else {
                throw UsageError(
                    "--at takes creation, now or an ISO 8601 date such as 2024-02-23T17:27:16Z, not \"\(text)\"")
            }
            return .date(date)
        }
    }

    /// The certificates `--root` names (and the test root with `--test-root`): throws when neither is given, since
    /// `command` trusts nothing by default.
    func trustedRootPaths(for command: String) throws(UsageError) -> [String] {
        let roots = repeated["--root"] ?? []
        guard !roots.isEmpty || flags.contains("--test-root") else {
            throw UsageError("\(command) trusts nothing by default: pass --root CERT (DER or PEM) or --test-root")
        }
        return roots
    }
}
