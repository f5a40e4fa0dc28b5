#if Server
    public import Foundation
    public import ReceiptKit
    import Synchronization

    /// Checks the `Authorization: Bearer <JWT>` of an App Store Server API request as Apple does.
    ///
    /// In order: three base64url segments with JSON header and payload; `alg` `ES256`; `kid` names a configured key; the
    /// ES256 signature verifies with that key; `aud` is `appstoreconnect-v1`; `iss` is the configured issuer; `exp` is
    /// after now and at most an hour after `iat` (or after now, for tokens without `iat`, as Apple's Python and Java
    /// libraries send); `iat`, when present, is not more than a minute ahead of now. Any failure is a 401 with a
    /// plain-text body, as Apple answers (its reason in the `X-OpenStoreKit-Auth-Failure` header). Then `bid`: missing is
    /// 400 `InvalidAppIdentifier`, another app's is 404 `AppNotFound`. "Now" is the store's clock.
    public struct BearerTokenVerifier: Sendable {
        /// The audience Apple requires.
        public static let audience = "appstoreconnect-v1"
        /// The longest a token may live.
        public static let maximumLifetime: TimeInterval = 3600
        /// How far ahead of the store's clock `iat` may be.
        public static let allowedSkew: TimeInterval = 60

        /// The keys that may sign, by key id.
        public let keys: [String: ES256Key]
        /// The issuer id tokens must name.
        public let issuerID: String
        /// The bundle id tokens must name.
        public let bundleID: String
        /// The store's clock.
        public let now: @Sendable () -> Date
        /// Tokens that passed every check, with their `exp`: a token reused until it expires (as Apple allows) is not
        /// verified again, only its expiry. At most ``acceptedLimit`` are kept.
        private let accepted = AcceptedTokens()
        /// How many accepted tokens are remembered.
        static let acceptedLimit = 1024

        /// Creates a verifier.
        public init(keys: [APIKey], issuerID: String, bundleID: String, now: @escaping @Sendable () -> Date) {
            var byID: [String: ES256Key] = [:]
            for key in keys { byID[key.keyID] = key.key }
            self.keys = byID
            self.issuerID = issuerID
            self.bundleID = bundleID
            self.now = now
        }

        /// The outcome of a check.
        public enum Outcome: Sendable, Hashable {
            /// The token is good.
            case authorized
            /// 401: the reason, for the debug header.
            case unauthorized(String)
            /// An Apple error (a missing or foreign `bid`).
            case refused(APIError)
        }

        /// Checks the value of an `Authorization` header (nil when there is none).
        public func check(authorization: String?) -> Outcome {
            guard let authorization, authorization.hasPrefix("Bearer ") else {
                return .unauthorized("no Authorization: Bearer header")
            }
            let token = Self.token(in: authorization.dropFirst("Bearer ".count))
            guard token.utf8.count <= 8192 else { return .unauthorized("the token is longer than 8192 bytes") }
            if let exp = accepted.exp(of: token) {
                guard exp > now().timeIntervalSince1970 else {
                    return .unauthorized("the token expired (exp is before the store's clock)")
                }
                return .authorized
            }
            let jws: CompactJWS
            do {
                jws = try CompactJWS(token)
            } catch {
                return .unauthorized("the token is not a compact JWS: \(error.detail)")
            }
            do throws(ReceiptError) {
                _ = try jws.keyID(verifiedWith: keys)
            } catch {
                return .unauthorized(error.detail)
            }
            let claims: Claims
            do {
                claims = try JSONDecoder().decode(Claims.self, from: Data(jws.payloadJSON))
            } catch {
                return .unauthorized("the claims are not what Apple defines: \(error)")
            }
            guard claims.aud?.contains(Self.audience) == true else {
                return .unauthorized("aud must be \(Self.audience)")
            }
            guard claims.iss == issuerID else { return .unauthorized("iss is not the configured issuer id") }
            let now = now().timeIntervalSince1970
            guard let exp = claims.exp else { return .unauthorized("the token has no exp") }
            guard exp > now else { return .unauthorized("the token expired (exp is before the store's clock)") }
            if let iat = claims.iat {
                guard iat <= now + Self.allowedSkew else { return .unauthorized("iat is ahead of the store's clock") }
                guard exp - iat <= Self.maximumLifetime else {
                    return .unauthorized("exp is more than an hour after iat")
                }
            } else {
                guard exp - now <= Self.maximumLifetime else {
                    return .unauthorized("exp is more than an hour after the store's clock")
                }
            }
            guard let bid = claims.bid else { return .refused(.invalidAppIdentifier) }
            guard bid == bundleID else { return .refused(.appNotFound) }
            accepted.remember(token, exp: exp, limit: Self.acceptedLimit)
            return .authorized
        }

        /// The token of an `Authorization` value after `Bearer `, without the whitespace around it.
        ///
        /// A token starts and ends with a printable ASCII character, which no trimming removes: then it is taken as it
        /// is, without Foundation's `trimmingCharacters(in:)`, which goes through UTF-16 and costs more than the rest
        /// of a check of a token seen before. Otherwise Foundation trims it as before.
        static func token(in value: Substring) -> String {
            let printable: ClosedRange<UInt8> = 0x21...0x7E
            if let first = value.utf8.first, let last = value.utf8.last, printable.contains(first),
                printable.contains(last)
            {
                return String(value)
            }
            return value.trimmingCharacters(in: .whitespaces)
        }

        /// The claims Apple reads.
        private struct Claims: Decodable {
            var iss: String?
            var iat: Double?
            var exp: Double?
            var aud: [String]?
            var bid: String?

            enum CodingKeys: String, CodingKey {
                case iss, iat, exp, aud, bid
            }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                iss = try container.decodeIfPresent(String.self, forKey: .iss)
                iat = try container.decodeIfPresent(Double.self, forKey: .iat)
                exp = try container.decodeIfPresent(Double.self, forKey: .exp)
                bid = try container.decodeIfPresent(String.self, forKey: .bid)
                if let one = try? container.decodeIfPresent(String.self, forKey: .aud) {
                    aud = [one]
                } else {
                    aud = try container.decodeIfPresent([String].self, forKey: .aud)
                }
            }
        }
    }

    /// The tokens a verifier accepted, by their text, with their `exp`.
    private final class AcceptedTokens: Sendable {
        private let tokens = Mutex<[String: Double]>([:])

        func exp(of token: String) -> Double? {
            tokens.withLock { $0[token] }
        }

        func remember(_ token: String, exp: Double, limit: Int) {
            tokens.withLock { tokens in
                if tokens.count >= limit { tokens.removeAll() }
                tokens[token] = exp
            }
        }
    }
#endif
