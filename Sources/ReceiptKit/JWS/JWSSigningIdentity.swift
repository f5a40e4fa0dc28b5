/// The certificates and the ECDSA P-256 key that sign StoreKit 2 JWS.
///
/// ``openStoreKitTest`` signs as the App Store does (an `x5c` of leaf, intermediate and root under the JWS test root
/// ``X509Certificate/openStoreKitJWSTestRoot``); ``openStoreKitXcode`` signs as Xcode's StoreKit testing does (one
/// self-signed certificate). Both are embedded in the library from `Receipts/jws/`; their keys are public and for
/// tests only.
public struct JWSSigningIdentity: Sendable {
    /// The certificates put in the `x5c` header, leaf first.
    public let certificates: [X509Certificate]
    /// The header's `kid`, if any (Xcode writes `Apple_Xcode_Key`).
    public let keyIdentifier: String?
    /// The leaf's private key.
    let privateKey: PrivateKey

    /// Creates an identity from certificates (leaf first) and the leaf's unencrypted PEM private key.
    ///
    /// - Parameters:
    ///   - certificates: The leaf, then the certificates to put after it in `x5c` (Apple puts intermediate and root).
    ///   - privateKeyPEM: The leaf's ECDSA P-256 private key, PEM (`BEGIN PRIVATE KEY` or `BEGIN EC PRIVATE KEY`).
    ///   - keyIdentifier: The header's `kid`, or nil for none.
    /// - Throws: ``ReceiptError/Code/privateKeyUnreadable``, or ``ReceiptError/Code/invalidSigningIdentity`` if
    ///   there is no certificate, the key is not P-256 or it does not belong to the leaf.
    public init(certificates: [X509Certificate], privateKeyPEM: String, keyIdentifier: String? = nil)
        throws(ReceiptError)
    {
        guard let leaf = certificates.first else {
            throw ReceiptError(.invalidSigningIdentity, "a signing identity needs at least the leaf certificate")
        }
        let key = try PrivateKey(pemEncoded: privateKeyPEM)
        guard key.isEC256 else {
            throw ReceiptError(.invalidSigningIdentity, "JWS are signed with ES256: the key must be ECDSA P-256")
        }
        guard leaf.matches(key) else {
            throw ReceiptError(
                .invalidSigningIdentity, "the private key does not belong to the leaf certificate \(leaf.subject)")
        }
        self.certificates = certificates
        self.privateKey = key
        self.keyIdentifier = keyIdentifier
    }

    /// The leaf (signing) certificate.
    public var leafCertificate: X509Certificate {
        certificates[0]
    }

    /// The App Store-shaped identity of the JWS test PKI: leaf "OpenStoreKit Test ECC Receipt Signing" (with the
    /// marker 1.2.840.113635.100.6.11.1), intermediate (with 1.2.840.113635.100.6.2.1) and root, valid 2020 to 2058.
    ///
    /// For tests and simulations only: its private key is published in `Receipts/jws/`.
    public static let openStoreKitTest: JWSSigningIdentity = {
        do {
            let certificates = try [TestPEM.leaf, TestPEM.intermediate, TestPEM.root].map {
                (pem) throws(ReceiptError) -> X509Certificate in try X509Certificate(pemEncoded: pem)
            }
            return try JWSSigningIdentity(certificates: certificates, privateKeyPEM: TestPEM.leafKey)
        } catch {
            fatalError("the embedded JWS test signing identity is unreadable: \(error)")
        }
    }()

    /// The Xcode-shaped identity: one self-signed certificate, "StoreKit Testing in OpenStoreKit", and the header
    /// `kid` `Apple_Xcode_Key`, as Xcode's StoreKit testing signs. Sign payloads with environment `Xcode` with it;
    /// a verifier accepts them only when it allows Xcode-signed data and trusts this certificate
    /// (``X509Certificate/openStoreKitXcodeTestCertificate``).
    public static let openStoreKitXcode: JWSSigningIdentity = {
        do {
            let certificate = try X509Certificate(pemEncoded: TestPEM.xcode)
            return try JWSSigningIdentity(
                certificates: [certificate], privateKeyPEM: TestPEM.xcodeKey, keyIdentifier: "Apple_Xcode_Key")
        } catch {
            fatalError("the embedded Xcode-shaped signing identity is unreadable: \(error)")
        }
    }()
}

extension X509Certificate {
    /// The root of the JWS test PKI, which ``JWSSigningIdentity/openStoreKitTest`` chains to (`Receipts/jws/root.pem`).
    ///
    /// Pass it to ``JWSVerifier/init(trustedRoots:)`` to accept JWS signed by the simulator; never trust it in
    /// production.
    public static let openStoreKitJWSTestRoot: X509Certificate = JWSSigningIdentity.openStoreKitTest.certificates[2]

    /// The Xcode-shaped self-signed certificate of ``JWSSigningIdentity/openStoreKitXcode`` (`Receipts/jws/xcode.pem`).
    public static let openStoreKitXcodeTestCertificate: X509Certificate =
        JWSSigningIdentity.openStoreKitXcode.certificates[0]
}
