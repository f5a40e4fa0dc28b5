internal import COpenSSL
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
    public let trustedRoots: [X509Certificate]
    private let store: TrustStore
    private let cache = ChainCache()

    /// Creates a verifier that trusts exactly these roots.
    ///
    /// To accept receipts from the simulated store, include ``X509Certificate/openStoreKitTestRoot``; for App Store
    /// receipts, Apple Inc. Root (`AppleIncRootCertificate.cer`); for Xcode receipts, Xcode's StoreKit certificate.
    ///
    /// - Parameter trustedRoots: The trusted root certificates.
    /// - Throws: ``ReceiptError/Code/openSSLFailure`` if OpenSSL cannot build the store.
    public init(trustedRoots: [X509Certificate]) throws(ReceiptError) {
        self.trustedRoots = trustedRoots
        self.store = try TrustStore(roots: trustedRoots)
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
        let cached = cache.lookup(certificateSet, signerIndex: signerIndex)
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
        // Seconds since 1970, kept within the years 0000 to 9999 that certificates can express.
        let interval = date.timeIntervalSince1970
        let seconds =
            interval.isNaN
            ? -62_167_219_200 : Int64(max(min(interval.rounded(.down), 253_402_300_799), -62_167_219_200))

        let chain: [X509Certificate]
        let isXcodeStyle: Bool
        if let cached, cached.validFrom <= seconds, seconds <= cached.validUntil {
            chain = cached.chain
            isXcodeStyle = cached.isXcodeStyle
        } else {
            let entry = try verifyChain(
                container, certificates: certificates, signerIndex: signerIndex, at: seconds,
                allowsXcode: options.allowsXcodeReceipts)
            cache.insert(entry)
            chain = entry.chain
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

    /// Builds and checks the chain from the signer to a trusted root at `seconds`, then Apple's policy.
    private func verifyChain(
        _ container: SignedDataContainer, certificates: [X509Certificate], signerIndex: Int, at seconds: Int64,
        allowsXcode: Bool
    ) throws(ReceiptError) -> ChainCache.Entry {
        let signer = certificates[signerIndex]
        let isXcodeStyle = trustedRoots.contains(signer)
        if isXcodeStyle && !allowsXcode { throw Self.xcodeNotAllowed(signer) }

        let outcome: Result<[OpaquePointer], ReceiptError> = store.withUnsafeStore { store in
            guard let untrusted = COpenSSL_sk_X509_new_null(), let context = X509_STORE_CTX_new() else {
                return .failure(OpenSSLErrorQueue.failure("X509_STORE_CTX_new"))
            }
            defer {
                X509_STORE_CTX_free(context)
                COpenSSL_sk_X509_free(untrusted)  // the stack does not own its certificates
            }
            for (index, certificate) in certificates.enumerated() where index != signerIndex {
                _ = certificate.withUnsafeX509 { COpenSSL_sk_X509_push(untrusted, $0) }
            }
            let initialized = signer.withUnsafeX509 { X509_STORE_CTX_init(context, store, $0, untrusted) }
            guard initialized == 1 else { return .failure(OpenSSLErrorQueue.failure("X509_STORE_CTX_init")) }
            X509_STORE_CTX_set_time(context, 0, time_t(seconds))
            _ = X509_STORE_CTX_set_purpose(context, isXcodeStyle ? X509_PURPOSE_ANY : X509_PURPOSE_SMIME_SIGN)
            guard X509_verify_cert(context) == 1 else {
                let code = X509_STORE_CTX_get_error(context)
                let depth = Int(X509_STORE_CTX_get_error_depth(context))
                _ = OpenSSLErrorQueue.drain()
                return .failure(Self.chainError(code, depth: depth, certificates: certificates, signer: signer))
            }
            guard let chain = X509_STORE_CTX_get0_chain(context) else {
                return .failure(OpenSSLErrorQueue.failure("X509_STORE_CTX_get0_chain"))
            }
            return .success(
                (0..<COpenSSL_sk_X509_num(chain)).compactMap { COpenSSL_sk_X509_value(chain, $0) })
        }
        let pointers = try outcome.get()
        let known = certificates + trustedRoots
        var chain: [X509Certificate] = []
        for pointer in pointers {
            guard let certificate = known.first(where: { $0.withUnsafeX509 { $0 == pointer } }) else {
                throw ReceiptError(.openSSLFailure, "the verified chain holds a certificate ReceiptKit did not pass")
            }
            chain.append(certificate)
        }

        if !isXcodeStyle {
            guard chain.count == 3 else {
                throw ReceiptError(
                    .unexpectedChainLength,
                    "the verified chain has \(chain.count) certificates; App Store receipts chain leaf, intermediate, "
                        + "root")
            }
            guard signer.hasExtension(ObjectIdentifiers.receiptSigningMarker) else {
                throw ReceiptError(
                    .missingReceiptSigningMarker,
                    "the signing certificate \(signer.subject) lacks the receipt-signing marker "
                        + ObjectIdentifiers.receiptSigningMarker)
            }
            guard chain[1].hasExtension(ObjectIdentifiers.intermediateMarker) else {
                throw ReceiptError(
                    .missingIntermediateMarker,
                    "the intermediate certificate \(chain[1].subject) lacks the marker "
                        + ObjectIdentifiers.intermediateMarker)
            }
        }
        for (index, certificate) in certificates.enumerated() where !chain.contains(certificate) {
            throw ReceiptError(
                .extraneousCertificate,
                "embedded certificate #\(index) (\(certificate.subject)) is not part of the verified chain",
                offset: container.certificates[index].lowerBound)
        }
        let validFrom = chain.map { Int64($0.notBefore.timeIntervalSince1970) }.max() ?? 0
        let validUntil = chain.map { Int64($0.notAfter.timeIntervalSince1970) }.min() ?? 0
        var certificateSet: [UInt8] = []
        if !container.certificateSet.isEmpty {
            certificateSet = container.scanner.copy(container.certificateSet)
        }
        return ChainCache.Entry(
            certificateSet: certificateSet, signerIndex: signerIndex, certificates: certificates, chain: chain,
            validFrom: validFrom, validUntil: validUntil, isXcodeStyle: isXcodeStyle)
    }

    /// Maps an OpenSSL verification error to a code.
    private static func chainError(
        _ code: Int32, depth: Int, certificates: [X509Certificate], signer: X509Certificate
    ) -> ReceiptError {
        let reason = String(cString: X509_verify_cert_error_string(Int(code)))
        let place = depth == 0 ? "the signing certificate \(signer.subject)" : "the certificate at chain depth \(depth)"
        switch code {
        case X509_V_ERR_CERT_HAS_EXPIRED:
            return ReceiptError(.certificateExpired, "\(place) had expired at the verification time (\(reason))")
        case X509_V_ERR_CERT_NOT_YET_VALID:
            return ReceiptError(
                .certificateNotYetValid, "\(place) was not yet valid at the verification time (\(reason))")
        case X509_V_ERR_CERT_SIGNATURE_FAILURE, X509_V_ERR_UNABLE_TO_DECRYPT_CERT_SIGNATURE,
            X509_V_ERR_UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY:
            return ReceiptError(.certificateSignatureInvalid, "the signature of \(place) does not verify (\(reason))")
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
            X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN,
            X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE, X509_V_ERR_CERT_UNTRUSTED:
            return ReceiptError(.chainNotTrusted, "no chain from \(place) to a trusted root (\(reason))")
        case X509_V_ERR_INVALID_PURPOSE, X509_V_ERR_INVALID_CA, X509_V_ERR_KEYUSAGE_NO_CERTSIGN,
            X509_V_ERR_INVALID_NON_CA, X509_V_ERR_KEYUSAGE_NO_DIGITAL_SIGNATURE, X509_V_ERR_PATH_LENGTH_EXCEEDED:
            return ReceiptError(.certificatePurposeInvalid, "\(place) may not sign receipts (\(reason))")
        default:
            return ReceiptError(.chainInvalid, "\(place) fails verification: \(reason) (OpenSSL error \(code))")
        }
    }
}
