/// What ``JWSVerifier/verify(_:options:)-(String,_)`` checks beyond the signature and the chain.
public struct JWSVerificationOptions: Sendable, Hashable {
    /// When the chain must be valid; ``JWSVerificationTime/signedDate`` by default.
    public var time: JWSVerificationTime
    /// The bundle identifier the payload must carry (`bundleId`, or a notification's `data.bundleId`), or nil not to
    /// check it. Payloads that carry no bundle identifier (renewal info) are not checked, as Apple's libraries do.
    public var bundleIdentifier: String?
    /// The environment the payload must name (`environment`, an app transaction's `receiptType`, or a
    /// notification's `data.environment`), or nil not to check it.
    public var environment: JWSEnvironment?
    /// Whether to accept JWS signed Xcode-style: one self-signed certificate in `x5c` that is itself a trusted root,
    /// over a payload whose environment is `Xcode`. The signature and the trust in the certificate are still
    /// checked. False by default.
    public var allowsXcode: Bool
    /// Whether the chain is checked with OpenSSL's strict X.509 rules (`X509_V_FLAG_X509_STRICT`: key identifiers,
    /// critical basic constraints, key usage on CA certificates), as Apple's Python library does by default. True by
    /// default; Apple's mock test certificates need it off.
    public var strictChecks: Bool

    /// Creates options.
    ///
    /// - Parameters:
    ///   - time: When the chain must be valid.
    ///   - bundleIdentifier: The expected bundle identifier, or nil.
    ///   - environment: The expected environment, or nil.
    ///   - allowsXcode: Whether to accept Xcode-signed JWS.
    ///   - strictChecks: Whether to apply OpenSSL's strict X.509 rules.
    public init(
        time: JWSVerificationTime = .signedDate,
        bundleIdentifier: String? = nil,
        environment: JWSEnvironment? = nil,
        allowsXcode: Bool = false,
        strictChecks: Bool = true
    ) {
        self.time = time
        self.bundleIdentifier = bundleIdentifier
        self.environment = environment
        self.allowsXcode = allowsXcode
        self.strictChecks = strictChecks
    }
}
