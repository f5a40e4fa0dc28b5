internal import Foundation

/// A PostgreSQL connection URL cut where libpq cuts it, to find and remove its password: the user information ends
/// at the first `@` before any `/` (so `?` and `#` may be part of a password), and the parameters follow the first
/// `?` after it, their names percent-decoded.
struct ServerURLParts {
    /// `postgresql://` or the like, or `nil` for a string without `://`.
    let scheme: String?
    /// What precedes the `@`, if there is one before the first `/`.
    let userInfo: Substring?
    /// Hosts, ports and database: what follows the user information, up to the `?`.
    let address: Substring
    /// Whether there is a `?`.
    let hasQuery: Bool
    /// The `&`-separated parameters after the `?`, as written.
    let parameters: [Substring]

    init(_ url: String) {
        guard let schemeEnd = url.range(of: "://") else {
            (scheme, userInfo, address, hasQuery, parameters) = (nil, nil, url[...], false, [])
            return
        }
        scheme = String(url[..<schemeEnd.upperBound])
        var rest = url[schemeEnd.upperBound...]
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        if let at = rest[..<slash].lastIndex(of: "@") {
            userInfo = rest[..<at]
            rest = rest[rest.index(after: at)...]
        } else {
            userInfo = nil
        }
        guard let question = rest.firstIndex(of: "?") else {
            (address, hasQuery, parameters) = (rest, false, [])
            return
        }
        address = rest[..<question]
        hasQuery = true
        parameters = rest[rest.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false)
    }

    /// Whether `parameter` sets the password (its name percent-decoded, in any case).
    static func isPassword(_ parameter: Substring) -> Bool {
        let name = parameter.prefix { $0 != "=" }
        return (String(name).removingPercentEncoding ?? String(name)).lowercased() == "password"
            && parameter.contains("=")
    }
}
