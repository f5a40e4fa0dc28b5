public import Foundation
import StoreModels

/// The bearer token of an App Store Server API request, as Apple defines it ("Generating JSON Web Tokens for API
/// requests"): a JWT signed ES256 with an In-App Purchase key from App Store Connect, header
/// `{"alg":"ES256","kid":KEY ID,"typ":"JWT"}`, claims `iss` (the issuer id), `iat` and `exp` (whole seconds since
/// 1970), `aud` `appstoreconnect-v1` and `bid` (the app's bundle id).
///
/// ```swift
/// let key = try ES256Key(pemEncoded: String(decoding: p8Bytes, as: UTF8.self))
/// let token = ServerAPIToken(keyID: "2X9R4HXF34", issuerID: issuer, bundleID: "com.example.app", issuedAt: now)
/// let header = "Bearer " + (try token.signed(with: key))
/// ```
public struct ServerAPIToken: Sendable, Hashable {
    /// The audience Apple requires: `appstoreconnect-v1`.
    public static let audience = "appstoreconnect-v1"
    /// The longest lifetime Apple accepts: an hour.
    public static let maximumLifetime: TimeInterval = 3600

    /// The key id (the header's `kid`).
    public var keyID: String
    /// The issuer id (`iss`).
    public var issuerID: String
    /// The bundle id (`bid`).
    public var bundleID: String
    /// When the token is issued (`iat`, taken to the whole second below).
    public var issuedAt: Date
    /// How long the token is valid, in seconds: `exp` is `iat` plus this.
    public var lifetime: TimeInterval

    /// Creates a token's contents; ``signed(with:)`` makes the token.
    public init(keyID: String, issuerID: String, bundleID: String, issuedAt: Date, lifetime: TimeInterval = 300) {
        self.keyID = keyID
        self.issuerID = issuerID
        self.bundleID = bundleID
        self.issuedAt = issuedAt
        self.lifetime = lifetime
    }

    /// `iat`: the issue time in whole seconds since 1970.
    public var issuedAtSeconds: Int64 { Int64(issuedAt.timeIntervalSince1970.rounded(.down)) }

    /// `exp`: ``issuedAtSeconds`` plus the lifetime's whole seconds.
    public var expiresAtSeconds: Int64 { issuedAtSeconds + Int64(lifetime.rounded(.down)) }

    /// The compact JWT, `header.claims.signature`, signed with `key` (the `.p8` key whose id is ``keyID``).
    ///
    /// - Throws: ``ReceiptError/Code/openSSLFailure`` if OpenSSL cannot sign.
    public func signed(with key: ES256Key) throws(ReceiptError) -> String {
        let header = #"{"alg":"ES256","kid":"# + Self.string(keyID) + #","typ":"JWT"}"#
        let claims =
            #"{"iss":"# + Self.string(issuerID) + #","iat":\#(issuedAtSeconds),"exp":\#(expiresAtSeconds),"aud":"#
            + Self.string(Self.audience) + #","bid":"# + Self.string(bundleID) + "}"
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        let signature = try key.sign(Array(input.utf8))
        return input + "." + Base64URL.encode(signature)
    }

    private static func string(_ text: String) -> String {
        "\"" + JSONValue.escaped(text) + "\""
    }
}
