import Foundation
import StoreModels

/// Verifies App Store receipts (PKCS#7 SignedData) against the roots its caller trusts, and nothing else.
///
/// ```swift
/// let verifier = try ReceiptVerifier(trustedRoots: [appleRoot])
/// let verified = try verifier.verify(receiptBytes, options: .init(bundleIdentifier: "com.example.app"))
/// print(verified.receipt.inAppPurchases.count)
/// ```
///
/// `verify` checks, in order: the PKCS#7 structure; the signer's certificate (found by issuer and serial number);
/// the signature over the payload (SHA-1 or SHA-256, with or without signed attributes); the payload; the chain from
/// the signer to a trusted root at the chosen time (the receipt's creation date by default); Apple's marker
/// extensions on the leaf and intermediate and a chain of exactly three certificates (or, when allowed, an
/// Xcode-style self-signed trusted certificate); that every embedded certificate belongs to the chain; and then the
/// bundle identifier, application version and device hash when asked. Each failure throws a ``ReceiptError`` with
/// its own code.
///
/// A verifier is safe to share between threads. It remembers verified chains by the exact bytes of the receipt's
/// certificates, so a receipt from a signer it has seen costs one walk over the bytes, one digest and one RSA
/// verification.
public final class ReceiptVerifier: Sendable {
    /// The roots this verifier trusts.
    public var trustedRoots: [X509Certificate] { chains.trustedRoots }
    private let chains: CertificateChainVerifier
    private let cache = ChainCache<CachedChain>()

    /// A verified chain, remembered by the exact bytes of the receipt's certificates.
    private struct CachedChain: Sendable {
        /// The bytes of the receipt's certificates field (all certificates, back to back).
        var certificateSet: [UInt8]
        /// Which embedded certificate signs.
        var signerIndex: Int
        /// The embedded certificates, decoded, in receipt order.
        var certificates: [X509Certificate]
        /// The verified chain, signer first.
        var chain: VerifiedChain
        /// Whether the chain is an Xcode-style self-signed trusted certificate.
        var isXcodeStyle: Bool

        /// Whether this entry is for these certificate bytes and signer.
        func matches(_ bytes: UnsafeRawBufferPointer, signerIndex: Int) -> Bool {
            guard self.signerIndex == signerIndex && certificateSet.count == bytes.count else { return false }
            return certificateSet.withUnsafeBytes { stored in
                stored.count == 0 || memcmp(stored.baseAddress!, bytes.baseAddress!, stored.count) == 0
            }
        }
    }

    /// Creates a verifier that trusts exactly these roots.
    ///
    /// To accept receipts from the simulated store, include ``X509Certificate/openStoreKitTestRoot``; for App Store
    /// receipts, Apple Inc. Root (`AppleIncRootCertificate.cer`); for Xcode receipts, Xcode's StoreKit certificate.
    ///
    /// - Parameter trustedRoots: The trusted root certificates.
    /// - Throws: ``ReceiptError/Code/openSSLFailure`` if OpenSSL cannot build the store.
    public init(trustedRoots: [X509Certificate]) throws(ReceiptError) {
        self.chains = try CertificateChainVerifier(trustedRoots: trustedRoots)
    }

    /// Creates a verifier that trusts these roots and, when asked, the root of ReceiptKit's test PKI.
    ///
    /// - Parameters:
    ///   - trustedRoots: The trusted root certificates.
    ///   - trustsTestRoot: Whether to trust ``X509Certificate/openStoreKitTestRoot`` too, which signs the receipts
    ///     of the simulated store. Never in production.
    /// - Throws: ``ReceiptError/Code/openSSLFailure`` if OpenSSL cannot build the store.
    public convenience init(trustedRoots: [X509Certificate], trustsTestRoot: Bool) throws(ReceiptError) {
        let extra =
            trustsTestRoot && !trustedRoots.contains(.openStoreKitTestRoot)
            ? [X509Certificate.openStoreKitTestRoot] : []
        try self.init(trustedRoots: trustedRoots + extra)
    }

    /// The number of verified chains remembered.
    public var cachedChainCount: Int {
        cache.count
    }

    /// Verifies a receipt.
    ///
    /// - Parameters:
    ///   - receipt: The receipt, PKCS#7 in DER or BER (decode base64 first, or use ``ReceiptFile``).
    ///   - options: The time and the application checks; by default the chain is checked at the receipt's creation
    ///     date and nothing else is required.
    /// - Returns: The verified receipt.
    /// - Throws: ``ReceiptError``; see the code table in `docs/receipts.md`.
    public func verify(
        _ receipt: [UInt8], options: ReceiptVerificationOptions = ReceiptVerificationOptions()
    ) throws(ReceiptError) -> VerifiedReceipt {
        try withBytes(receipt) { (raw) throws(ReceiptError) -> VerifiedReceipt in
            try verify(raw, options: options)
        }
    }

    private func verify(
        _ raw: UnsafeRawBufferPointer, options: ReceiptVerificationOptions
    ) throws(ReceiptError) -> VerifiedReceipt {
        let container = try SignedDataContainer(raw)
        let signerIndex = try container.signerIndex()
        let certificateSet = UnsafeRawBufferPointer(rebasing: raw[container.certificateSet])
        let cached = cache.lookup { $0.matches(certificateSet, signerIndex: signerIndex) }
        let certificates: [X509Certificate]
        if let cached {
            certificates = cached.certificates
        } else {
            certificates = try decodeCertificates(container)
        }
        let signer = certificates[signerIndex]

        // The signature first, so that nothing unsigned is interpreted; then the payload.
        let receipt = try container.withPayloadBytes { (scanner, range) throws(ReceiptError) -> AppReceipt in
            let payload = UnsafeRawBufferPointer(rebasing: scanner.bytes[range])
            let signed = try container.signedBytes(payload: payload)
            let valid = try container.withSignature { (signature) throws(ReceiptError) -> Bool in
                switch signed {
                case .payload:
                    return signer.verifySignature(signature, over: payload, digest: container.digest)
                case .attributes(let attributes):
                    return attributes.withUnsafeBytes {
                        signer.verifySignature(signature, over: $0, digest: container.digest)
                    }
                }
            }
            guard valid else {
                throw ReceiptError(
                    .signatureInvalid,
                    "the \(container.digest.rawValue.uppercased()) signature does not verify with the signer's key",
                    offset: container.signature.offset)
            }
            var inner = range
            if range.count > 0 && scanner.bytes[range.lowerBound] == 0x04 {
                inner = try scanner.single(in: range).content  // one more OCTET STRING, as Apple's tools allow
            }
            let parsed = try PayloadParser.parse(scanner, range: inner)
            if let device = options.deviceIdentifier {
                let hash: [UInt8]
                switch parsed.bundleIdentifierValue {
                case .range(let bundle):
                    hash = Digest.sha1(device.bytes, parsed.receipt.opaqueValue, scanner.copy(bundle))
                case .joined(let bundle):
                    hash = Digest.sha1(device.bytes, parsed.receipt.opaqueValue, bundle)
                }
                guard hash == parsed.receipt.sha1Hash else {
                    throw ReceiptError(
                        .deviceHashMismatch, "the receipt's SHA-1 hash is not the one of device \(device)")
                }
            }
            return parsed.receipt
        }

        let date: Date
        switch options.time {
        case .creationDate: date = receipt.creationDate
        case .now: date = SystemClock().now
        case .date(let given): date = given
        }
        let seconds = CertificateChainVerifier.seconds(date)

        let chain: [X509Certificate]
        let isXcodeStyle: Bool
        if let cached, cached.chain.isValid(at: seconds) {
            chain = cached.chain.certificates
            isXcodeStyle = cached.isXcodeStyle
        } else {
            let entry = try verifyChain(
                container, certificates: certificates, signerIndex: signerIndex, at: seconds,
                allowsXcode: options.allowsXcodeReceipts)
            cache.insert(entry) { $0.signerIndex == entry.signerIndex && $0.certificateSet == entry.certificateSet }
            chain = entry.chain.certificates
            isXcodeStyle = entry.isXcodeStyle
        }
        if isXcodeStyle && !options.allowsXcodeReceipts {
            throw Self.xcodeNotAllowed(signer)
        }

        if let expected = options.bundleIdentifier, expected != receipt.bundleIdentifier {
            throw ReceiptError(
                .bundleIdentifierMismatch,
                "the receipt is for bundle identifier '\(receipt.bundleIdentifier)', not '\(expected)'")
        }
        if let expected = options.applicationVersion, expected != receipt.applicationVersion {
            throw ReceiptError(
                .applicationVersionMismatch,
                "the receipt is for application version '\(receipt.applicationVersion)', not '\(expected)'")
        }
        return VerifiedReceipt(
            receipt: receipt, digestAlgorithm: container.digest, verificationDate: date,
            isXcodeReceipt: isXcodeStyle, certificateChain: chain)
    }

    private static func xcodeNotAllowed(_ signer: X509Certificate) -> ReceiptError {
        ReceiptError(
            .xcodeReceiptNotAllowed,
            "the receipt is signed Xcode-style by the self-signed certificate \(signer.subject); allow Xcode receipts "
                + "to accept it")
    }

    /// Decodes the embedded certificates; one byte-identical to a trusted root reuses the root's decoded object.
    private func decodeCertificates(_ container: SignedDataContainer) throws(ReceiptError) -> [X509Certificate] {
        var certificates: [X509Certificate] = []
        certificates.reserveCapacity(container.certificates.count)
        for range in container.certificates {
            let bytes = UnsafeRawBufferPointer(rebasing: container.scanner.bytes[range])
            if let root = trustedRoots.first(where: { $0.derEncoded.elementsEqual(bytes) }) {
                certificates.append(root)
            } else {
                certificates.append(
                    try X509Certificate(der: Array(bytes), failure: .certificateMalformed, offset: range.lowerBound))
            }
        }
        return certificates
    }

    /// Builds and checks the chain from the signer to a trusted root at `seconds`, then Apple's policy, then that every
    /// embedded certificate belongs to the chain.
    private func verifyChain(
        _ container: SignedDataContainer, certificates: [X509Certificate], signerIndex: Int, at seconds: Int64,
        allowsXcode: Bool
    ) throws(ReceiptError) -> CachedChain {
        let signer = certificates[signerIndex]
        let isXcodeStyle = trustedRoots.contains(signer)
        if isXcodeStyle && !allowsXcode { throw Self.xcodeNotAllowed(signer) }

        let policy =
            isXcodeStyle
            ? CertificateChainVerifier.Policy(purpose: .any, strict: false, shape: .any, signs: "receipts")
            : CertificateChainVerifier.Policy(purpose: .smimeSign, strict: false, shape: .apple, signs: "receipts")
        var untrusted = certificates
        untrusted.remove(at: signerIndex)
        let chain = try chains.verify(signer, untrusted: untrusted, at: seconds, policy: policy)
        for (index, certificate) in certificates.enumerated() where !chain.certificates.contains(certificate) {
            throw ReceiptError(
                .extraneousCertificate,
                "embedded certificate #\(index) (\(certificate.subject)) is not part of the verified chain",
                offset: container.certificates[index].lowerBound)
        }
        var certificateSet: [UInt8] = []
        if !container.certificateSet.isEmpty {
            certificateSet = container.scanner.copy(container.certificateSet)
        }
        return CachedChain(
            certificateSet: certificateSet, signerIndex: signerIndex, certificates: certificates, chain: chain,
            isXcodeStyle: isXcodeStyle)
    }
}
