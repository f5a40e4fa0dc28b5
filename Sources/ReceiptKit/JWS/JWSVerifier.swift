import Foundation
import StoreModels

/// Verifies StoreKit 2 compact JWS (signed transactions, renewal info, app transactions, server notifications)
/// against the roots its caller trusts, and nothing else, with the policy of Apple's App Store Server Libraries.
///
/// ```swift
/// let verifier = try JWSVerifier(trustedRoots: [appleRootCAG3])
/// let verified = try verifier.verify(jws, options: .init(bundleIdentifier: "com.example.app", environment: .sandbox))
/// let transaction = try verified.decode(JWSTransaction.self)
/// ```
///
/// `verify` checks, in order: the form (three base64url segments, JSON header and payload, a 64-byte signature);
/// `alg` is `ES256`; `x5c` is present and holds exactly three certificates (or, when Xcode-signed data is allowed,
/// one self-signed certificate); the certificates decode; the ES256 signature over `header.payload` with the leaf's
/// key; the chain from the leaf through `x5c[1]` to one of the trusted roots (never `x5c[2]`, which is ignored as
/// Apple's libraries ignore it) with OpenSSL's `X509_verify_cert` at the chosen time (the payload's `signedDate` by
/// default); Apple's marker extensions on the leaf (1.2.840.113635.100.6.11.1) and intermediate
/// (1.2.840.113635.100.6.2.1); then the environment and the bundle identifier when asked. Each failure throws a
/// ``ReceiptError`` with its own code; no input makes it crash.
///
/// A verifier is safe to share between threads. It remembers verified chains by the bytes of the leaf certificate
/// (and the other `x5c` entries), so a JWS from a signer it has seen costs the decoding, one ES256 verification and
/// a check of the cached chain's validity.
public final class JWSVerifier: Sendable {
    /// The roots this verifier trusts.
    public var trustedRoots: [X509Certificate] { chains.trustedRoots }
    private let chains: CertificateChainVerifier
    private let cache = ChainCache<CachedChain>()

    /// A verified chain, remembered by the bytes of the JWS's `x5c` certificates.
    private struct CachedChain: Sendable {
        /// The DER bytes of `x5c[0]`.
        var leafBytes: [UInt8]
        /// The DER bytes of the other `x5c` entries, in order.
        var otherBytes: [[UInt8]]
        /// The decoded leaf.
        var leaf: X509Certificate
        /// The verified chain, leaf first.
        var chain: VerifiedChain
        /// Whether the chain is one Xcode-style self-signed trusted certificate.
        var isXcodeStyle: Bool
        /// Whether the chain passed OpenSSL's strict X.509 rules.
        var strict: Bool

        /// Whether this entry is for these `x5c` certificates.
        func matches(leaf: [UInt8], others: [[UInt8]]) -> Bool {
            leafBytes == leaf && otherBytes == others
        }
    }

    /// Creates a verifier that trusts exactly these roots.
    ///
    /// For App Store JWS, pass Apple Root CA - G3; for the simulator's, ``X509Certificate/openStoreKitJWSTestRoot``;
    /// for Xcode-signed JWS, Xcode's StoreKit testing certificate (and allow Xcode-signed data in the options).
    ///
    /// - Parameter trustedRoots: The trusted root certificates.
    /// - Throws: ``ReceiptError/Code/openSSLFailure`` if OpenSSL cannot build the store.
    public init(trustedRoots: [X509Certificate]) throws(ReceiptError) {
        self.chains = try CertificateChainVerifier(trustedRoots: trustedRoots)
    }

    /// The number of verified chains remembered.
    public var cachedChainCount: Int {
        cache.count
    }

    /// Verifies a compact JWS.
    ///
    /// - Parameters:
    ///   - jws: The JWS text.
    ///   - options: The time and the checks; by default the chain is checked at the payload's `signedDate`, under
    ///     strict X.509 rules, and Xcode-signed data is refused.
    /// - Returns: The verified JWS.
    /// - Throws: ``ReceiptError``; see the code table in `docs/jws.md`.
    public func verify(
        _ jws: String, options: JWSVerificationOptions = JWSVerificationOptions()
    ) throws(ReceiptError) -> VerifiedJWS {
        try verify(CompactJWS(jws), options: options)
    }

    /// Verifies a compact JWS given as bytes (the contents of a `.jws` file).
    ///
    /// - Parameters:
    ///   - bytes: The JWS as ASCII.
    ///   - options: The time and the checks.
    /// - Returns: The verified JWS.
    /// - Throws: ``ReceiptError``; see the code table in `docs/jws.md`.
    public func verify(
        bytes: [UInt8], options: JWSVerificationOptions = JWSVerificationOptions()
    ) throws(ReceiptError) -> VerifiedJWS {
        try verify(CompactJWS(bytes: bytes), options: options)
    }

    /// Verifies a JWS already decoded.
    ///
    /// - Parameters:
    ///   - jws: The decoded JWS.
    ///   - options: The time and the checks.
    /// - Returns: The verified JWS.
    /// - Throws: ``ReceiptError``; see the code table in `docs/jws.md`.
    public func verify(
        _ jws: CompactJWS, options: JWSVerificationOptions = JWSVerificationOptions()
    ) throws(ReceiptError) -> VerifiedJWS {
        guard jws.algorithm == "ES256" else {
            throw ReceiptError(
                .unsupportedAlgorithm,
                "the JWS header's alg is " + (jws.algorithm.map { "\"\($0)\"" } ?? "missing")
                    + "; App Store JWS are signed with ES256")
        }
        guard let x5c = jws.certificateChain else {
            throw ReceiptError(
                .missingCertificateChain, "the JWS header has no x5c array of base64 certificates")
        }
        let xcodeShaped = x5c.count == 1
        guard x5c.count == 3 || (xcodeShaped && options.allowsXcode) else {
            if xcodeShaped, let single = try? Self.decodeEntry(x5c[0], index: 0), single.isSelfSigned {
                throw ReceiptError(
                    .xcodeJWSNotAllowed,
                    "the JWS is signed Xcode-style by the self-signed certificate \(single.subject); allow "
                        + "Xcode-signed data to accept it")
            }
            throw ReceiptError(
                .unexpectedChainLength,
                "the JWS header's x5c holds \(x5c.count) certificates; App Store JWS carry leaf, intermediate, root")
        }
        var bytes: [[UInt8]] = []
        bytes.reserveCapacity(x5c.count)
        for (index, entry) in x5c.enumerated() {
            guard let der = Base64URL.decodeStandard(entry), !der.isEmpty else {
                throw ReceiptError(.certificateMalformed, "x5c[\(index)] is not base64")
            }
            bytes.append(der)
        }
        let others = Array(bytes.dropFirst())
        let cached = cache.lookup { $0.matches(leaf: bytes[0], others: others) }.flatMap {
            $0.strict || !options.strictChecks ? $0 : nil
        }
        // Every certificate decodes before anything else is checked, as in Apple's libraries.
        let leaf: X509Certificate
        var intermediate: X509Certificate?
        if let cached {
            leaf = cached.leaf
            intermediate = cached.chain.certificates.count == 3 ? cached.chain.certificates[1] : nil
        } else {
            leaf = try X509Certificate(der: bytes[0], failure: .certificateMalformed)
            if bytes.count == 3 {
                intermediate = try X509Certificate(der: bytes[1], failure: .certificateMalformed)
                // x5c[2] must be a certificate, but it is not trusted or used: the root comes from the trusted roots.
                if !trustedRoots.contains(where: { $0.derEncoded == bytes[2] }) {
                    _ = try X509Certificate(der: bytes[2], failure: .certificateMalformed)
                }
            }
        }

        // The signature first, so that nothing unsigned is interpreted.
        guard let der = ECDSASignature.der(fromRaw: jws.signature) else {
            throw ReceiptError(.signatureInvalid, "the ES256 signature is not a P-256 R and S")
        }
        guard ES256.verify(der, over: jws.signingInput, with: leaf) else {
            throw ReceiptError(
                .signatureInvalid, "the ES256 signature does not verify with the key of x5c[0] (\(leaf.subject))")
        }

        // Every field verification reads has the type Apple's payloads give it: a field of another type is refused,
        // not read as absent (a string signedDate would otherwise move the verification time to now).
        if let problem = jws.fields.problem {
            throw ReceiptError(.invalidJWS, problem)
        }

        let date: Date
        switch options.time {
        case .signedDate:
            if let milliseconds = jws.fields.signedDate ?? jws.fields.receiptCreationDate {
                date = Date(timeIntervalSince1970: (milliseconds / 1000).rounded(.down))
            } else {
                date = SystemClock().now
            }
        case .now: date = SystemClock().now
        case .date(let given): date = given
        }
        let seconds = CertificateChainVerifier.seconds(date)

        let entry: CachedChain
        if let cached, cached.chain.isValid(at: seconds) {
            entry = cached
        } else {
            entry = try verifyChain(
                leaf: leaf, intermediate: intermediate, bytes: bytes, at: seconds, strict: options.strictChecks)
            cache.insert(entry) { $0.matches(leaf: entry.leafBytes, others: entry.otherBytes) }
        }

        let environment = jws.fields.environment
        if entry.isXcodeStyle && environment != JWSEnvironment.xcode.rawValue {
            throw ReceiptError(
                .environmentMismatch,
                "the JWS is signed Xcode-style, but its payload's environment is "
                    + (environment.map { "\"\($0)\"" } ?? "missing") + ", not \"Xcode\"")
        }
        if let expected = options.environment, expected.rawValue != environment {
            throw ReceiptError(
                .environmentMismatch,
                "the JWS is for environment " + (environment.map { "\"\($0)\"" } ?? "(none)")
                    + ", not \"\(expected.rawValue)\"")
        }
        if let expected = options.bundleIdentifier, let bundle = jws.fields.bundleIdentifier, bundle != expected {
            throw ReceiptError(
                .bundleIdentifierMismatch, "the JWS is for bundle identifier '\(bundle)', not '\(expected)'")
        }
        return VerifiedJWS(
            jws: jws, verificationDate: date, isXcodeSigned: entry.isXcodeStyle,
            certificateChain: entry.chain.certificates)
    }

    private static func decodeEntry(_ entry: String, index: Int) throws(ReceiptError) -> X509Certificate {
        guard let der = Base64URL.decodeStandard(entry), !der.isEmpty else {
            throw ReceiptError(.certificateMalformed, "x5c[\(index)] is not base64")
        }
        return try X509Certificate(der: der, failure: .certificateMalformed)
    }

    /// Builds and checks the chain from the leaf through the intermediate to a trusted root at `seconds`, then
    /// Apple's marker extensions (or, for an Xcode-style JWS, that its one certificate is a trusted root).
    private func verifyChain(
        leaf: X509Certificate, intermediate: X509Certificate?, bytes: [[UInt8]], at seconds: Int64, strict: Bool
    ) throws(ReceiptError) -> CachedChain {
        let isXcodeStyle = bytes.count == 1
        if isXcodeStyle && !leaf.isSelfSigned {
            throw ReceiptError(
                .unexpectedChainLength,
                "the JWS header's x5c holds one certificate that is not self-signed (\(leaf.subject)); App Store JWS "
                    + "carry leaf, intermediate, root")
        }
        let policy =
            isXcodeStyle
            ? CertificateChainVerifier.Policy(purpose: .unset, strict: false, shape: .trustedLeaf, signs: "JWS")
            : CertificateChainVerifier.Policy(purpose: .unset, strict: strict, shape: .apple, signs: "JWS")
        let chain = try chains.verify(leaf, untrusted: intermediate.map { [$0] } ?? [], at: seconds, policy: policy)
        return CachedChain(
            leafBytes: bytes[0], otherBytes: Array(bytes.dropFirst()), leaf: leaf, chain: chain,
            isXcodeStyle: isXcodeStyle, strict: strict)
    }
}
