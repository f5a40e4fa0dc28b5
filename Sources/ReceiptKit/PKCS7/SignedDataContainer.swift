/// The parts of a PKCS#7 SignedData receipt, found by walking its DER/BER without copying.
///
/// ```
/// ContentInfo ::= SEQUENCE { contentType signedData, [0] EXPLICIT SignedData }
/// SignedData ::= SEQUENCE { version, digestAlgorithms SET, encapContentInfo SEQUENCE { data, [0] EXPLICIT
///   OCTET STRING payload }, certificates [0] IMPLICIT OPTIONAL, crls [1] IMPLICIT OPTIONAL, signerInfos SET }
/// SignerInfo ::= SEQUENCE { version, issuerAndSerialNumber, digestAlgorithm, [0] IMPLICIT signedAttrs OPTIONAL,
///   signatureAlgorithm, signature OCTET STRING, [1] IMPLICIT unsignedAttrs OPTIONAL }
/// ```
/// Every field of the envelope is read and checked, so that no byte outside the certificates and the signature goes
/// unchecked: the versions are 1 (a signer named by issuer and serial number over `data` content), the
/// digestAlgorithms set names exactly the signer's digest algorithm, every AlgorithmIdentifier's parameters are absent
/// or NULL, the signature algorithm agrees with the digest, and there are no CRLs and no unsigned attributes (neither
/// is covered by the signature).
///
/// Only valid while the buffer it was made from is.
struct SignedDataContainer {
    let scanner: BERScanner
    /// The payload OCTET STRING (primitive, or constructed from segments in BER).
    var payload: TLV
    /// Each embedded certificate, whole.
    var certificates: [Range<Int>]
    /// The contents of the certificates field (all certificates, back to back), or an empty range.
    var certificateSet: Range<Int>
    /// The signer's issuer Name, whole.
    var signerIssuer: Range<Int>
    /// The signer's serial number INTEGER contents.
    var signerSerial: Range<Int>
    /// The signer's digest algorithm.
    var digest: ReceiptDigestAlgorithm
    /// The signed attributes `[0] IMPLICIT SET OF Attribute`, when present.
    var signedAttributes: TLV?
    /// The signature OCTET STRING.
    var signature: TLV

    /// Walks a receipt that fills `bytes`.
    init(_ bytes: UnsafeRawBufferPointer) throws(ReceiptError) {
        let s = BERScanner(bytes, rules: .ber)
        scanner = s
        guard bytes.count > 0 else {
            throw ReceiptError(.notPKCS7, "the input is empty, not a PKCS#7 receipt", offset: 0)
        }
        guard bytes[0] == 0x30 else {
            throw ReceiptError(
                .notPKCS7,
                "not a PKCS#7 receipt: it starts with byte 0x\(String(bytes[0], radix: 16)), not a SEQUENCE (0x30)"
                    + (bytes[0] == 0x7B || bytes[0] == 0x3C ? "; it looks like a property list" : ""),
                offset: 0)
        }
        let contentInfo = try s.single(in: 0..<bytes.count)
        let contentType = try s.element(at: contentInfo.contentStart, limit: contentInfo.contentEnd, depth: 1)
        guard contentType.identifier == 0x06 else {
            throw ReceiptError(
                .notPKCS7, "not a PKCS#7 receipt: the outer SEQUENCE does not start with a content type OID",
                offset: contentType.offset)
        }
        guard s.equals(contentType.content, ObjectIdentifiers.signedData) else {
            throw ReceiptError(
                .unsupportedContentType, "the PKCS#7 content type is not signedData (1.2.840.113549.1.7.2)",
                offset: contentType.offset)
        }
        guard contentType.end < contentInfo.contentEnd else {
            throw ReceiptError(.invalidSignedData, "the SignedData content is missing", offset: contentType.end)
        }
        let explicit = try s.element(at: contentType.end, limit: contentInfo.contentEnd, depth: 1)
        try s.expect(explicit, 0xA0, "[0] EXPLICIT SignedData")
        guard explicit.end == contentInfo.contentEnd else {
            throw ReceiptError(.unexpectedElement, "extra elements after the SignedData", offset: explicit.end)
        }
        let signedData = try s.element(at: explicit.contentStart, limit: explicit.contentEnd, depth: 2)
        try s.expect(signedData, 0x30, "the SignedData SEQUENCE")
        guard signedData.end == explicit.contentEnd else {
            throw ReceiptError(.unexpectedElement, "extra elements after the SignedData", offset: signedData.end)
        }

        // version, digestAlgorithms
        let end = signedData.contentEnd
        let version = try s.element(at: signedData.contentStart, limit: end, depth: 3)
        try Self.checkVersion(s, version, "SignedData")
        let digestAlgorithms = try s.element(at: version.end, limit: end, depth: 3)
        try s.expect(digestAlgorithms, 0x31, "the SignedData digestAlgorithms SET")
        var listed: [(algorithm: ReceiptDigestAlgorithm, offset: Int)] = []
        try s.forEachChild(of: digestAlgorithms, depth: 3) { (identifier) throws(ReceiptError) in
            listed.append((try Self.digestAlgorithm(s, identifier, depth: 4), identifier.offset))
        }

        // encapContentInfo
        let encapsulated = try s.element(at: digestAlgorithms.end, limit: end, depth: 3)
        try s.expect(encapsulated, 0x30, "the encapsulated ContentInfo SEQUENCE")
        let eContentType = try s.element(at: encapsulated.contentStart, limit: encapsulated.contentEnd, depth: 4)
        try s.expect(eContentType, 0x06, "the encapsulated content type OID")
        guard s.equals(eContentType.content, ObjectIdentifiers.data) else {
            throw ReceiptError(
                .unsupportedContentType, "the signed content type is not data (1.2.840.113549.1.7.1)",
                offset: eContentType.offset)
        }
        guard eContentType.end < encapsulated.contentEnd else {
            throw ReceiptError(
                .missingPayload, "the receipt has no payload (a detached signature)", offset: eContentType.end)
        }
        let eContent = try s.element(at: eContentType.end, limit: encapsulated.contentEnd, depth: 4)
        try s.expect(eContent, 0xA0, "[0] EXPLICIT payload")
        guard eContent.end == encapsulated.contentEnd else {
            throw ReceiptError(.unexpectedElement, "extra elements after the payload", offset: eContent.end)
        }
        payload = try s.element(at: eContent.contentStart, limit: eContent.contentEnd, depth: 5)
        guard payload.primitiveIdentifier == 0x04 else {
            throw ReceiptError(
                .unexpectedElement, "expected the payload OCTET STRING, found \(payload.tag)", offset: payload.offset)
        }
        guard payload.end == eContent.contentEnd else {
            throw ReceiptError(.unexpectedElement, "extra elements after the payload", offset: payload.end)
        }

        // certificates [0] IMPLICIT, crls [1] IMPLICIT, signerInfos SET
        var position = encapsulated.end
        var next = try s.element(at: position, limit: end, depth: 3)
        certificates = []
        certificateSet = next.offset..<next.offset
        if next.identifier == 0xA0 {
            certificateSet = next.content
            var certificates: [Range<Int>] = []
            try s.forEachChild(of: next, depth: 3) { (certificate) throws(ReceiptError) in
                try s.expect(certificate, 0x30, "a certificate SEQUENCE")
                certificates.append(certificate.range)
            }
            self.certificates = certificates
            position = next.end
            next = try s.element(at: position, limit: end, depth: 3)
        }
        if next.identifier == 0xA1 {
            throw ReceiptError(
                .invalidSignedData,
                "the receipt carries revocation lists (crls), which its signature does not cover; receipts have none",
                offset: next.offset)
        }
        try s.expect(next, 0x31, "the signerInfos SET")
        guard next.end == end else {
            throw ReceiptError(.unexpectedElement, "extra elements after signerInfos", offset: next.end)
        }
        let signerInfos = next
        guard signerInfos.contentCount > 0 else {
            throw ReceiptError(.invalidSignedData, "the receipt has no signer", offset: signerInfos.offset)
        }
        let signerInfo = try s.element(at: signerInfos.contentStart, limit: signerInfos.contentEnd, depth: 4)
        guard signerInfo.end == signerInfos.contentEnd else {
            throw ReceiptError(
                .invalidSignedData, "the receipt has more than one signer; receipts have exactly one",
                offset: signerInfo.end)
        }
        try s.expect(signerInfo, 0x30, "the SignerInfo SEQUENCE")
        try s.validateStructure(of: signerInfo, depth: 4)

        // SignerInfo
        let infoEnd = signerInfo.contentEnd
        let signerVersion = try s.element(at: signerInfo.contentStart, limit: infoEnd, depth: 5)
        try Self.checkVersion(s, signerVersion, "SignerInfo")
        let sid = try s.element(at: signerVersion.end, limit: infoEnd, depth: 5)
        guard sid.identifier == 0x30 else {
            throw ReceiptError(
                .signerNotFound,
                "the signer is not identified by issuer and serial number (found \(sid.tag)); receipts always are",
                offset: sid.offset)
        }
        let issuer = try s.element(at: sid.contentStart, limit: sid.contentEnd, depth: 6)
        try s.expect(issuer, 0x30, "the signer's issuer Name")
        let serial = try s.element(at: issuer.end, limit: sid.contentEnd, depth: 6)
        try s.expect(serial, 0x02, "the signer's serial number")
        guard serial.end == sid.contentEnd else {
            throw ReceiptError(.unexpectedElement, "extra elements after the signer's serial", offset: serial.end)
        }
        signerIssuer = issuer.range
        signerSerial = serial.content
        let digestAlgorithm = try s.element(at: sid.end, limit: infoEnd, depth: 5)
        let signerDigest = try Self.digestAlgorithm(s, digestAlgorithm, depth: 5)
        digest = signerDigest
        // With one signer, the SignedData lists exactly its digest algorithm (CMS, RFC 5652 section 5.1).
        guard listed.count == 1, listed[0].algorithm == signerDigest else {
            let names = listed.map { $0.algorithm.rawValue.uppercased() }.joined(separator: ", ")
            throw ReceiptError(
                .invalidSignedData,
                "the SignedData digestAlgorithms set lists \(listed.isEmpty ? "nothing" : names); a receipt's lists "
                    + "exactly its signer's digest algorithm, \(signerDigest.rawValue.uppercased())",
                offset: listed.first(where: { $0.algorithm != signerDigest })?.offset ?? digestAlgorithms.offset)
        }
        var field = try s.element(at: digestAlgorithm.end, limit: infoEnd, depth: 5)
        signedAttributes = nil
        if field.identifier == 0xA0 {
            signedAttributes = field
            field = try s.element(at: field.end, limit: infoEnd, depth: 5)
        }
        try Self.checkSignatureAlgorithm(s, field, digest: signerDigest)
        signature = try s.element(at: field.end, limit: infoEnd, depth: 5)
        guard signature.primitiveIdentifier == 0x04 else {
            throw ReceiptError(
                .unexpectedElement, "expected the signature OCTET STRING, found \(signature.tag)",
                offset: signature.offset)
        }
        if signature.end < infoEnd {
            let after = try s.element(at: signature.end, limit: infoEnd, depth: 5)
            guard after.identifier == 0xA1 else {
                throw ReceiptError(.unexpectedElement, "extra elements in the SignerInfo", offset: after.offset)
            }
            throw ReceiptError(
                .invalidSignedData,
                "the SignerInfo carries unsigned attributes, which its signature does not cover; receipts have none",
                offset: after.offset)
        }
    }

    /// Requires a version INTEGER to be 1: a SignedData over `data` content and a SignerInfo naming its signer by
    /// issuer and serial number are version 1 (CMS, RFC 5652), as every App Store and Xcode receipt is.
    private static func checkVersion(_ s: BERScanner, _ element: TLV, _ what: String) throws(ReceiptError) {
        let version = try s.int64(element, "\(what) version")
        guard version == 1 else {
            throw ReceiptError(
                .invalidSignedData, "the \(what) version is \(version); a receipt's is 1", offset: element.offset)
        }
    }

    /// Reads a digest AlgorithmIdentifier: a supported digest OID, with parameters absent or NULL.
    private static func digestAlgorithm(
        _ s: BERScanner, _ element: TLV, depth: Int
    ) throws(ReceiptError) -> ReceiptDigestAlgorithm {
        try s.expect(element, 0x30, "the digest AlgorithmIdentifier")
        let oid = try s.element(at: element.contentStart, limit: element.contentEnd, depth: depth + 1)
        try s.expect(oid, 0x06, "the digest algorithm OID")
        guard let algorithm = ReceiptDigestAlgorithm.find(s, oid.content) else {
            throw ReceiptError(
                .unsupportedAlgorithm, "the digest algorithm is not SHA-1, SHA-256, SHA-384 or SHA-512",
                offset: oid.offset)
        }
        try checkParameters(s, element, after: oid, depth: depth, what: "digest")
        return algorithm
    }

    /// Requires an AlgorithmIdentifier's parameters, after its OID, to be absent or NULL (as RFC 5754 and RFC 3370
    /// have them for SHA-2 and RSA; Apple's receipts write NULL).
    private static func checkParameters(
        _ s: BERScanner, _ element: TLV, after oid: TLV, depth: Int, what: String
    ) throws(ReceiptError) {
        guard oid.end < element.contentEnd else { return }
        let parameters = try s.element(at: oid.end, limit: element.contentEnd, depth: depth + 1)
        guard parameters.identifier == 0x05, parameters.contentCount == 0 else {
            throw ReceiptError(
                .invalidSignedData,
                "the \(what) algorithm's parameters are \(parameters.tag), not NULL; they must be NULL or absent",
                offset: parameters.offset)
        }
        guard parameters.end == element.contentEnd else {
            throw ReceiptError(
                .unexpectedElement, "extra elements after the \(what) algorithm's parameters",
                offset: parameters.end)
        }
    }

    /// Checks the signature AlgorithmIdentifier: RSA PKCS#1 v1.5 (parameters NULL or absent) or ECDSA (parameters
    /// absent), and, when the OID names a digest (sha256WithRSAEncryption, ecdsa-with-SHA256), the signer's digest.
    private static func checkSignatureAlgorithm(
        _ s: BERScanner, _ element: TLV, digest: ReceiptDigestAlgorithm
    ) throws(ReceiptError) {
        try s.expect(element, 0x30, "the signature AlgorithmIdentifier")
        let oid = try s.element(at: element.contentStart, limit: element.contentEnd, depth: 6)
        try s.expect(oid, 0x06, "the signature algorithm OID")
        let content = oid.content
        let bytes = UnsafeRawBufferPointer(rebasing: s.bytes[content])
        let rsaDigests: [UInt8: ReceiptDigestAlgorithm?] = [
            1: nil, 5: .sha1, 11: .sha256, 12: .sha384, 13: .sha512,
        ]
        let ecdsaDigests: [UInt8: ReceiptDigestAlgorithm] = [2: .sha256, 3: .sha384, 4: .sha512]
        let named: ReceiptDigestAlgorithm?
        if content.count == 9, bytes.starts(with: ObjectIdentifiers.pkcs1Prefix), let entry = rsaDigests[bytes[8]] {
            named = entry
            try checkParameters(s, element, after: oid, depth: 5, what: "signature")
        } else if s.equals(content, ObjectIdentifiers.ecPublicKey) {
            named = nil
            try checkParameters(s, element, after: oid, depth: 5, what: "signature")
        } else if content.count == 8, bytes.starts(with: ObjectIdentifiers.ecdsaPrefix),
            let entry = ecdsaDigests[bytes[7]]
        {
            named = entry
            guard oid.end == element.contentEnd else {
                throw ReceiptError(
                    .invalidSignedData, "the ECDSA signature algorithm has parameters; it must have none",
                    offset: oid.end)
            }
        } else {
            throw ReceiptError(
                .unsupportedAlgorithm,
                "the signature algorithm is neither RSA PKCS#1 v1.5 nor ECDSA with SHA-1, SHA-256, SHA-384 or SHA-512",
                offset: oid.offset)
        }
        if let named, named != digest {
            throw ReceiptError(
                .invalidSignedData,
                "the signature algorithm names \(named.rawValue.uppercased()), but the signer's digest algorithm is "
                    + "\(digest.rawValue.uppercased())",
                offset: oid.offset)
        }
    }

    /// Calls `body` with a scanner and the range of the payload bytes (joined if BER segmented them).
    ///
    /// A payload that is itself wrapped in one more OCTET STRING is unwrapped, as Apple's own tools do.
    func withPayload<R>(_ body: (BERScanner, Range<Int>) throws(ReceiptError) -> R) throws(ReceiptError) -> R {
        try withPayloadBytes { (scanner, range) throws(ReceiptError) -> R in
            if range.count > 0 && scanner.bytes[range.lowerBound] == 0x04 {
                let inner = try scanner.single(in: range)
                return try PayloadParser.withValue(scanner, inner, depth: 1, body)
            }
            return try body(scanner, range)
        }
    }

    /// Calls `body` with a scanner and the range of the signed content bytes (joined if BER segmented them).
    func withPayloadBytes<R>(_ body: (BERScanner, Range<Int>) throws(ReceiptError) -> R) throws(ReceiptError) -> R {
        switch try scanner.contentBytes(payload, depth: 5) {
        case .range(let range):
            let payloadScanner = BERScanner(scanner.bytes, rules: .ber, context: "in the payload")
            return try body(payloadScanner, range)
        case .joined(let joined):
            return try withBytes(joined) { (raw) throws(ReceiptError) -> R in
                let inner = BERScanner(
                    raw, rules: .ber, reportedBase: 0,
                    context: "in the payload (offset counted in its joined segments)")
                return try body(inner, 0..<raw.count)
            }
        }
    }

    /// Calls `body` with the signature bytes (joined if BER segmented them).
    func withSignature<R>(_ body: (UnsafeRawBufferPointer) throws(ReceiptError) -> R) throws(ReceiptError) -> R {
        switch try scanner.contentBytes(signature, depth: 5) {
        case .range(let range):
            return try body(UnsafeRawBufferPointer(rebasing: scanner.bytes[range]))
        case .joined(let joined):
            return try withBytes(joined, body)
        }
    }

    /// The index of the embedded certificate whose issuer and serial number match the signer's.
    func signerIndex() throws(ReceiptError) -> Int {
        for (index, certificate) in certificates.enumerated() {
            if let (issuer, serial) = try? Self.issuerAndSerial(scanner, certificate),
                scanner.bytes[issuer].elementsEqual(scanner.bytes[signerIssuer]),
                scanner.bytes[serial].elementsEqual(scanner.bytes[signerSerial])
            {
                return index
            }
        }
        throw ReceiptError(
            .signerNotFound,
            certificates.isEmpty
                ? "the receipt embeds no certificate"
                : "none of the \(certificates.count) embedded certificates has the signer's issuer and serial number",
            offset: signerIssuer.lowerBound)
    }

    /// The issuer Name (whole) and serial INTEGER contents of a certificate.
    static func issuerAndSerial(_ s: BERScanner, _ certificate: Range<Int>) throws(ReceiptError) -> (
        Range<Int>, Range<Int>
    ) {
        let outer = try s.element(at: certificate.lowerBound, limit: certificate.upperBound, depth: 4)
        let tbs = try s.element(at: outer.contentStart, limit: outer.contentEnd, depth: 5)
        try s.expect(tbs, 0x30, "tbsCertificate")
        var field = try s.element(at: tbs.contentStart, limit: tbs.contentEnd, depth: 6)
        if field.identifier == 0xA0 {
            field = try s.element(at: field.end, limit: tbs.contentEnd, depth: 6)
        }
        try s.expect(field, 0x02, "the certificate serial number")
        let signature = try s.element(at: field.end, limit: tbs.contentEnd, depth: 6)
        let issuer = try s.element(at: signature.end, limit: tbs.contentEnd, depth: 6)
        try s.expect(issuer, 0x30, "the certificate issuer")
        return (issuer.range, field.content)
    }

    /// Checks signed attributes, when present: the content type is data and the message digest matches the
    /// payload. Returns the bytes the signature covers: the payload, or the attributes re-tagged as a SET.
    func signedBytes(payload: UnsafeRawBufferPointer) throws(ReceiptError) -> SignedBytes {
        guard let attributes = signedAttributes else { return .payload }
        let s = scanner
        var messageDigest: Range<Int>?
        try s.forEachChild(of: attributes, depth: 5) { (attribute) throws(ReceiptError) in
            try s.expect(attribute, 0x30, "a signed attribute SEQUENCE")
            let type = try s.element(at: attribute.contentStart, limit: attribute.contentEnd, depth: 7)
            try s.expect(type, 0x06, "a signed attribute type")
            let values = try s.element(at: type.end, limit: attribute.contentEnd, depth: 7)
            try s.expect(values, 0x31, "a signed attribute's values SET")
            if s.equals(type.content, ObjectIdentifiers.messageDigest) {
                let value = try s.single(in: values.content, depth: 8)
                try s.expect(value, 0x04, "the messageDigest OCTET STRING")
                guard messageDigest == nil else {
                    throw ReceiptError(.invalidSignedData, "two messageDigest attributes", offset: attribute.offset)
                }
                messageDigest = value.content
            } else if s.equals(type.content, ObjectIdentifiers.contentType) {
                let value = try s.single(in: values.content, depth: 8)
                guard value.identifier == 0x06, s.equals(value.content, ObjectIdentifiers.data) else {
                    throw ReceiptError(
                        .invalidSignedData, "the signed contentType attribute is not data", offset: value.offset)
                }
            }
        }
        guard let messageDigest else {
            throw ReceiptError(
                .invalidSignedData, "signed attributes without a messageDigest", offset: attributes.offset)
        }
        let computed = Digest.hash(digest, payload)
        guard s.bytes[messageDigest].elementsEqual(computed) else {
            throw ReceiptError(
                .signatureInvalid, "the signed messageDigest does not match the payload",
                offset: messageDigest.lowerBound)
        }
        var retagged = Array(UnsafeRawBufferPointer(rebasing: s.bytes[attributes.range]))
        retagged[0] = 0x31  // the signature covers the attributes as an explicit SET OF
        return .attributes(retagged)
    }

    /// What a SignerInfo's signature covers.
    enum SignedBytes {
        /// The payload itself (no signed attributes, as in Apple's receipts).
        case payload
        /// The DER of the signed attributes with the SET tag.
        case attributes([UInt8])
    }
}
