/// Wraps receipt payloads in PKCS#7 SignedData exactly as the App Store does.
///
/// The output is DER: `ContentInfo { signedData, SignedData { version 1, digestAlgorithms { SHA-256 },
/// { data, payload }, certificates [leaf, intermediate, root] in that order, signerInfos { one SignerInfo with
/// issuer and serial, no signed attributes, rsaEncryption, the signature over the payload } } }`. RSA PKCS#1 v1.5
/// signatures are deterministic, so one payload always signs to the same bytes.
public struct ReceiptSigner: Sendable {
    /// The certificates and key that sign.
    public let identity: ReceiptSigningIdentity
    /// The digest algorithm (SHA-256, like App Store receipts since 2023; SHA-1 for legacy-shaped receipts).
    public let digestAlgorithm: ReceiptDigestAlgorithm

    /// Creates a signer.
    ///
    /// - Parameters:
    ///   - identity: The signing identity; by default the test identity ``ReceiptSigningIdentity/openStoreKitTest``.
    ///   - digestAlgorithm: The digest algorithm; SHA-256 by default.
    public init(
        identity: ReceiptSigningIdentity = .openStoreKitTest, digestAlgorithm: ReceiptDigestAlgorithm = .sha256
    ) {
        self.identity = identity
        self.digestAlgorithm = digestAlgorithm
    }

    /// Encodes and signs a receipt.
    ///
    /// - Parameter receipt: The receipt.
    /// - Returns: The signed receipt (PKCS#7 DER), what `appStoreReceiptURL` points to.
    /// - Throws: ``ReceiptError/Code/openSSLFailure`` if OpenSSL cannot sign.
    public func sign(_ receipt: AppReceipt) throws(ReceiptError) -> [UInt8] {
        try sign(payload: receipt.derEncoded())
    }

    /// Signs a payload.
    ///
    /// - Parameter payload: The payload (normally ``AppReceipt/derEncoded()``).
    /// - Returns: The signed receipt (PKCS#7 DER).
    /// - Throws: ``ReceiptError/Code/openSSLFailure`` if OpenSSL cannot sign.
    public func sign(payload: [UInt8]) throws(ReceiptError) -> [UInt8] {
        let signature = try withBytes(payload) { (raw) throws(ReceiptError) -> [UInt8] in
            try identity.privateKey.sign(raw, digest: digestAlgorithm)
        }
        let certificateBytes = identity.certificates.reduce(0) { $0 + $1.derEncoded.count }
        var writer = DERWriter(reservingCapacity: payload.count + certificateBytes + signature.count + 128)
        writer.appendSequence { contentInfo in
            contentInfo.appendEncoded([0x06, 0x09] + ObjectIdentifiers.signedData)
            contentInfo.appendConstructed(.contextSpecific(0)) { explicit in
                explicit.appendSequence { signedData in
                    signedData.appendInteger(1)
                    signedData.appendSetOf { $0.appendAlgorithm(digestAlgorithm.oidContents) }
                    signedData.appendSequence { content in
                        content.appendEncoded([0x06, 0x09] + ObjectIdentifiers.data)
                        content.appendConstructed(.contextSpecific(0)) { $0.appendOctetString(payload) }
                    }
                    // [0] IMPLICIT certificates, in the order Apple uses (leaf first), not sorted.
                    signedData.appendConstructed(.contextSpecific(0)) { set in
                        for certificate in identity.certificates { set.appendEncoded(certificate.derEncoded) }
                    }
                    signedData.appendSetOf { signerInfos in
                        signerInfos.appendSequence { signerInfo in
                            signerInfo.appendInteger(1)
                            signerInfo.appendEncoded(identity.issuerAndSerialNumber)
                            signerInfo.appendAlgorithm(digestAlgorithm.oidContents)
                            signerInfo.appendAlgorithm(ObjectIdentifiers.rsaEncryption)
                            signerInfo.appendOctetString(signature)
                        }
                    }
                }
            }
        }
        return writer.bytes
    }
}

extension DERWriter {
    /// Writes `AlgorithmIdentifier ::= SEQUENCE { algorithm OID, parameters NULL }`.
    mutating func appendAlgorithm(_ oidContents: [UInt8]) {
        appendSequence { sequence in
            sequence.appendPrimitive(.objectIdentifier, contents: oidContents)
            sequence.appendNull()
        }
    }
}
