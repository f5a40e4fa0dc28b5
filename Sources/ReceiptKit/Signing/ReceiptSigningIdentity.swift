/// A certificate chain and the leaf's private key: what signs receipts.
///
/// ``openStoreKitTest`` is the identity of ReceiptKit's test PKI (`Receipts/pki/`), embedded in the library so that
/// a built binary can issue receipts on its own. Its keys are public and for tests only: a verifier trusts them
/// only when its caller passes ``X509Certificate/openStoreKitTestRoot``.
public struct ReceiptSigningIdentity: Sendable {
    /// The certificates embedded in every receipt, in Apple's order: leaf, intermediate(s), root.
    public let certificates: [X509Certificate]
    /// The leaf's private key.
    let privateKey: PrivateKey
    /// The DER `IssuerAndSerialNumber` of the leaf, which identifies the signer in a SignerInfo.
    let issuerAndSerialNumber: [UInt8]

    /// Creates an identity from certificates (leaf first) and the leaf's unencrypted PEM private key.
    ///
    /// - Parameters:
    ///   - certificates: The leaf, then the certificates to embed after it (Apple embeds intermediate and root).
    ///   - privateKeyPEM: The leaf's private key, PEM (`BEGIN PRIVATE KEY` or `BEGIN RSA PRIVATE KEY`).
    /// - Throws: ``ReceiptError/Code/privateKeyUnreadable``, or ``ReceiptError/Code/invalidSigningIdentity`` if
    ///   there is no certificate, the key is not RSA or it does not belong to the leaf.
    public init(certificates: [X509Certificate], privateKeyPEM: String) throws(ReceiptError) {
        guard let leaf = certificates.first else {
            throw ReceiptError(.invalidSigningIdentity, "a signing identity needs at least the leaf certificate")
        }
        let key = try PrivateKey(pemEncoded: privateKeyPEM)
        guard key.isRSA else {
            throw ReceiptError(.invalidSigningIdentity, "receipts are signed with RSA keys; this key is not RSA")
        }
        guard leaf.matches(key) else {
            throw ReceiptError(
                .invalidSigningIdentity, "the private key does not belong to the leaf certificate \(leaf.subject)")
        }
        self.certificates = certificates
        self.privateKey = key
        self.issuerAndSerialNumber = try withBytes(leaf.derEncoded) { (raw) throws(ReceiptError) -> [UInt8] in
            let scanner = BERScanner(raw, rules: .ber, context: "in the leaf certificate")
            let (issuer, serial) = try SignedDataContainer.issuerAndSerial(scanner, 0..<raw.count)
            var writer = DERWriter()
            writer.appendSequence { sequence in
                sequence.appendEncoded(scanner.copy(issuer))
                sequence.appendPrimitive(.integer, contents: scanner.copy(serial))
            }
            return writer.bytes
        }
    }

    /// Creates an identity from one PEM text holding the certificates (leaf first) and the leaf's private key.
    ///
    /// - Parameter pem: The PEM text, for example `cat leaf.pem intermediate.pem root.pem leaf.key`.
    /// - Throws: ``ReceiptError/Code/certificateUnreadable``, ``ReceiptError/Code/privateKeyUnreadable`` or
    ///   ``ReceiptError/Code/invalidSigningIdentity``.
    public init(pemEncoded pem: String) throws(ReceiptError) {
        try self.init(certificates: X509Certificate.certificates(pemEncoded: pem), privateKeyPEM: pem)
    }

    /// The leaf (signing) certificate.
    public var leafCertificate: X509Certificate {
        certificates[0]
    }

    /// The identity of ReceiptKit's test PKI: leaf "OpenStoreKit Test Receipt Signing" (with Apple's receipt-signing
    /// marker), intermediate (with Apple's intermediate marker) and root, valid from 2020 to 2058.
    ///
    /// For tests and simulations only: its private key is published in `Receipts/pki/`.
    public static let openStoreKitTest: ReceiptSigningIdentity = {
        do {
            let certificates = try [TestPEM.leaf, TestPEM.intermediate, TestPEM.root].map {
                (pem) throws(ReceiptError) -> X509Certificate in try X509Certificate(pemEncoded: pem)
            }
            return try ReceiptSigningIdentity(certificates: certificates, privateKeyPEM: TestPEM.leafKey)
        } catch {
            fatalError("the embedded test signing identity is unreadable: \(error)")
        }
    }()
}

extension X509Certificate {
    /// The root certificate of ReceiptKit's test PKI, which ``ReceiptSigningIdentity/openStoreKitTest`` chains to.
    ///
    /// Pass it to ``ReceiptVerifier/init(trustedRoots:)`` to accept receipts issued by the simulated store; never
    /// trust it in production.
    public static let openStoreKitTestRoot: X509Certificate = ReceiptSigningIdentity.openStoreKitTest.certificates[2]
}
