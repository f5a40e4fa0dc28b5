import Foundation
import ReceiptKit
import TestSupport
import Testing

/// Apple's JWS vectors, with the outcomes Apple's server libraries give them (`storekit2.md` §4.2, §4.3).
@Suite("JWS: Apple's vectors", .requiresSharedData)
struct JWSVectorTests {
    /// Apple's mock verifier: root asslp_testCA.der; its test certificates fail strict checks, as in Apple's tests.
    static func mockOptions(
        bundle: String? = "com.example", environment: JWSEnvironment? = .sandbox
    ) -> JWSVerificationOptions {
        JWSVerificationOptions(bundleIdentifier: bundle, environment: environment, strictChecks: false)
    }

    @Test("the mock transaction verifies under Apple's test root, environment Sandbox")
    func transactionInfo() throws {
        let verifier = try JWSVerifier(trustedRoots: [JWSFixtures.appleTestRoot()])
        let verified = try verifier.verify(
            JWSFixtures.jws("asslp_mock_transactionInfo.jws"), options: Self.mockOptions())
        #expect(verified.environment == .sandbox)
        #expect(verified.bundleIdentifier == "com.example")
        #expect(verified.signedDate == Date(timeIntervalSince1970: 1_672_956_154))
        #expect(verified.verificationDate == Date(timeIntervalSince1970: 1_672_956_154))
        #expect(verified.certificateChain.count == 3)
        #expect(verified.certificateChain[2] == (try JWSFixtures.appleTestRoot()))
        let transaction = try verified.decode(JWSTransaction.self)
        #expect(transaction.bundleId == "com.example")
        #expect(transaction.environment == .sandbox)
        #expect(transaction.signedDate == JWSDate(millisecondsSince1970: 1_672_956_154_000))
    }

    @Test("the mock transaction for another bundle is refused: bundleIdentifierMismatch")
    func transactionWrongBundle() throws {
        let verifier = try JWSVerifier(trustedRoots: [JWSFixtures.appleTestRoot()])
        let jws = try JWSFixtures.jws("asslp_mock_transactionInfo.jws")
        JWSFixtures.expectCode(.bundleIdentifierMismatch) {
            _ = try verifier.verify(jws, options: Self.mockOptions(bundle: "com.example.x"))
        }
    }

    @Test("the mock renewal info verifies (it has no bundle identifier, so only the environment is checked)")
    func renewalInfo() throws {
        let verifier = try JWSVerifier(trustedRoots: [JWSFixtures.appleTestRoot()])
        let verified = try verifier.verify(JWSFixtures.jws("asslp_mock_renewalInfo.jws"), options: Self.mockOptions())
        #expect(verified.environment == .sandbox)
        #expect(try verified.decode(JWSRenewalInfo.self).environment == .sandbox)
    }

    @Test("the TEST notification verifies for Sandbox and is refused for Production: environmentMismatch")
    func testNotification() throws {
        let verifier = try JWSVerifier(trustedRoots: [JWSFixtures.appleTestRoot()])
        let jws = try JWSFixtures.jws("asslp_mock_testNotification.jws")
        let verified = try verifier.verify(jws, options: Self.mockOptions())
        let payload = try #require(
            try JSONSerialization.jsonObject(with: Data(verified.payloadJSON)) as? [String: Any])
        #expect(payload["notificationType"] as? String == "TEST")
        #expect(verified.bundleIdentifier == "com.example")
        JWSFixtures.expectCode(.environmentMismatch) {
            _ = try verifier.verify(jws, options: Self.mockOptions(environment: .production))
        }
    }

    @Test("the notification for com.example.wrong is refused: bundleIdentifierMismatch")
    func wrongBundleId() throws {
        let verifier = try JWSVerifier(trustedRoots: [JWSFixtures.appleTestRoot()])
        let jws = try JWSFixtures.jws("asslp_mock_wrongBundleId.jws")
        JWSFixtures.expectCode(.bundleIdentifierMismatch) {
            _ = try verifier.verify(jws, options: Self.mockOptions(environment: nil))
        }
        JWSFixtures.expectCode(.bundleIdentifierMismatch) {
            _ = try verifier.verify(jws, options: Self.mockOptions(bundle: "com.examplex", environment: nil))
        }
    }

    @Test("a header whose chain is under x5cwrong is refused: missingCertificateChain")
    func missingX5C() throws {
        let verifier = try JWSVerifier(trustedRoots: [JWSFixtures.appleTestRoot()])
        let jws = try JWSFixtures.jws("asslp_mock_missingX5CHeaderClaim.jws")
        JWSFixtures.expectCode(.missingCertificateChain) {
            _ = try verifier.verify(jws, options: Self.mockOptions())
        }
    }

    @Test("the legacy SK1 transaction receipt is not a JWS: invalidJWS")
    func legacyTransaction() throws {
        let verifier = try JWSVerifier(trustedRoots: [JWSFixtures.appleTestRoot()])
        let text = try JWSFixtures.jws("asslp_mock_legacyTransaction.jws")
        JWSFixtures.expectCode(.invalidJWS) { _ = try verifier.verify(text, options: Self.mockOptions()) }
        JWSFixtures.expectCode(.invalidJWS) { _ = try CompactJWS(text) }
    }

    @Test("a.b.c and a.b.c.d are refused as not a JWS")
    func segmentCounts() throws {
        let verifier = try JWSVerifier(trustedRoots: [JWSFixtures.appleTestRoot()])
        for text in ["a.b.c", "a.b.c.d", "a.b", "", "...", "a..c"] {
            JWSFixtures.expectCode(.invalidJWS, "\(text)") { _ = try verifier.verify(text) }
        }
    }

    @Test("the mock chain fails OpenSSL's strict checks, as Apple's test certificates do (strict is the default)")
    func mockChainFailsStrict() throws {
        let verifier = try JWSVerifier(trustedRoots: [JWSFixtures.appleTestRoot()])
        let jws = try JWSFixtures.jws("asslp_mock_transactionInfo.jws")
        do {
            _ = try verifier.verify(jws)
            Issue.record("the mock chain passed strict checks")
        } catch {
            #expect([ReceiptError.Code.chainInvalid, .certificatePurposeInvalid].contains(error.code), "\(error)")
        }
    }

    @Test("x5c[2] is not trusted: the mock JWS does not verify under its own embedded root alone")
    func embeddedRootIsIgnored() throws {
        let jws = try CompactJWS(JWSFixtures.jws("asslp_mock_transactionInfo.jws"))
        let chain = try #require(jws.certificateChain)
        let embeddedDER = try #require(Data(base64Encoded: chain[2]))
        let embedded = try X509Certificate(derEncoded: [UInt8](embeddedDER))
        #expect(embedded != (try JWSFixtures.appleTestRoot()))
        // Trusting some other root only: the chain must not be taken from the header.
        let verifier = try JWSVerifier(trustedRoots: [X509Certificate.openStoreKitJWSTestRoot])
        JWSFixtures.expectCode(.chainNotTrusted) {
            _ = try verifier.verify(jws, options: Self.mockOptions())
        }
    }

    // MARK: Xcode-signed

    static let xcodeBundle = "com.example.naturelab.backyardbirds.example"

    /// A verifier trusting the Xcode certificate found in a vector (as a user would add Xcode's StoreKit certificate).
    static func xcodeVerifier() throws -> JWSVerifier {
        let jws = try CompactJWS(JWSFixtures.jws("asslp_xcode-signed-transaction.jws"))
        let first = try #require(jws.certificateChain?.first)
        let der = try #require(Data(base64Encoded: first))
        return try JWSVerifier(trustedRoots: [X509Certificate(derEncoded: [UInt8](der))])
    }

    @Test(
        "Xcode-signed JWS verify with allow-Xcode, environment Xcode and their bundle",
        arguments: [
            "asslp_xcode-signed-transaction.jws", "asslp_xcode-signed-renewal-info.jws",
            "asslp_xcode-signed-app-transaction.jws",
        ])
    func xcodeSigned(name: String) throws {
        let verifier = try Self.xcodeVerifier()
        let options = JWSVerificationOptions(bundleIdentifier: Self.xcodeBundle, environment: .xcode, allowsXcode: true)
        let verified = try verifier.verify(JWSFixtures.jws(name), options: options)
        #expect(verified.isXcodeSigned)
        #expect(verified.environment == .xcode)
        #expect(verified.certificateChain.count == 1)
    }

    @Test("the Xcode-signed transaction decodes with fractional dates truncated to whole milliseconds")
    func xcodeTransactionFields() throws {
        let verifier = try Self.xcodeVerifier()
        let verified = try verifier.verify(
            JWSFixtures.jws("asslp_xcode-signed-transaction.jws"),
            options: JWSVerificationOptions(allowsXcode: true))
        let transaction = try verified.decode(JWSTransaction.self)
        #expect(transaction.transactionId == "0")
        #expect(transaction.originalTransactionId == "0")
        #expect(transaction.webOrderLineItemId == "0")
        #expect(transaction.productId == "pass.premium")
        #expect(transaction.subscriptionGroupIdentifier == "6F3A93AB")
        #expect(transaction.purchaseDate == JWSDate(millisecondsSince1970: 1_697_679_936_049))
        #expect(transaction.expiresDate == JWSDate(millisecondsSince1970: 1_700_358_336_049))
        #expect(transaction.signedDate == JWSDate(millisecondsSince1970: 1_697_679_936_056))
        #expect(transaction.quantity == 1)
        #expect(transaction.type == .autoRenewable)
        #expect(transaction.inAppOwnershipType == .purchased)
        #expect(transaction.offerType == .introductory)
        #expect(transaction.storefront == "USA")
        #expect(transaction.storefrontId == "143441")
        #expect(transaction.transactionReason == .purchase)
        #expect(verified.verificationDate == Date(timeIntervalSince1970: 1_697_679_936))
        let app = try verifier.verify(
            JWSFixtures.jws("asslp_xcode-signed-app-transaction.jws"),
            options: JWSVerificationOptions(allowsXcode: true)
        ).decode(JWSAppTransaction.self)
        #expect(app.receiptType == .xcode)
        #expect(app.receiptCreationDate == JWSDate(millisecondsSince1970: 1_697_680_122_257))
        #expect(app.originalPurchaseDate == JWSDate(millisecondsSince1970: -62_135_769_600_000))
        #expect(app.deviceVerificationNonce == "48c8b92d-ce0d-4229-bedf-e61b4f9cfc92")
        let renewal = try verifier.verify(
            JWSFixtures.jws("asslp_xcode-signed-renewal-info.jws"), options: JWSVerificationOptions(allowsXcode: true)
        ).decode(JWSRenewalInfo.self)
        #expect(renewal.autoRenewStatus == .on)
        #expect(renewal.autoRenewProductId == "pass.premium")
        #expect(renewal.renewalDate == JWSDate(millisecondsSince1970: 1_700_358_336_049))
    }

    @Test(
        "Xcode-signed JWS are refused without allow-Xcode, by a verifier not trusting the certificate, and outside it")
    func xcodeRefused() throws {
        let jws = try JWSFixtures.jws("asslp_xcode-signed-app-transaction.jws")
        let trusting = try Self.xcodeVerifier()
        JWSFixtures.expectCode(.xcodeJWSNotAllowed) {
            _ = try trusting.verify(jws, options: JWSVerificationOptions(environment: .production))
        }
        let other = try JWSVerifier(trustedRoots: [JWSFixtures.appleTestRoot()])
        JWSFixtures.expectCode(.chainNotTrusted) {
            _ = try other.verify(jws, options: JWSVerificationOptions(allowsXcode: true))
        }
        JWSFixtures.expectCode(.environmentMismatch) {
            _ = try trusting.verify(jws, options: JWSVerificationOptions(environment: .sandbox, allowsXcode: true))
        }
        JWSFixtures.expectCode(.certificateExpired) {
            _ = try trusting.verify(
                jws,
                options: JWSVerificationOptions(
                    time: .date(Date(timeIntervalSince1970: 1_800_000_000)),
                    allowsXcode: true))
        }
    }

    // MARK: Apple's x509 test chain (§4.3), minted with its leaf key

    static func mint(_ names: [String] = ["LEAF_CERT", "INTERMEDIATE_CA", "ROOT_CA"]) throws -> String {
        try JWSSigner(identity: JWSFixtures.appleTestChainIdentity(names)).sign(
            JWSFixtures.transaction(bundle: "com.example"))
    }

    static func chainOptions(_ date: Date = JWSFixtures.appleChainEffectiveDate, strict: Bool = false)
        -> JWSVerificationOptions
    {
        JWSVerificationOptions(time: .date(date), strictChecks: strict)
    }

    @Test("the x509 test chain verifies at its effective date with strict checks off")
    func appleChainValid() throws {
        let verifier = try JWSVerifier(trustedRoots: [JWSFixtures.certificate("asslp_x509test_ROOT_CA.der")])
        let verified = try verifier.verify(Self.mint(), options: Self.chainOptions())
        #expect(verified.certificateChain.count == 3)
        #expect(verified.certificateChain[0] == (try JWSFixtures.certificate("asslp_x509test_LEAF_CERT.der")))
        // The same chain verifies under asslp_testCA.der (same key and name as ROOT_CA).
        let mock = try JWSVerifier(trustedRoots: [JWSFixtures.appleTestRoot()])
        _ = try mock.verify(Self.mint(), options: Self.chainOptions())
    }

    @Test("the x509 test chain: expired at 2280946846, untrusted under the real G3 root, strict failure")
    func appleChainFailures() throws {
        let verifier = try JWSVerifier(trustedRoots: [JWSFixtures.certificate("asslp_x509test_ROOT_CA.der")])
        let jws = try Self.mint()
        JWSFixtures.expectCode(.certificateExpired) {
            _ = try verifier.verify(jws, options: Self.chainOptions(JWSFixtures.appleChainExpiredDate))
        }
        let real = try JWSVerifier(trustedRoots: [JWSFixtures.certificate("asslp_x509test_REAL_APPLE_ROOT.der")])
        JWSFixtures.expectCode(.chainNotTrusted) { _ = try real.verify(jws, options: Self.chainOptions()) }
        let none = try JWSVerifier(trustedRoots: [])
        JWSFixtures.expectCode(.chainNotTrusted) { _ = try none.verify(jws, options: Self.chainOptions()) }
        do {
            _ = try verifier.verify(jws, options: Self.chainOptions(strict: true))
            Issue.record("Apple's x509 test chain passed strict checks")
        } catch {
            #expect([ReceiptError.Code.chainInvalid, .certificatePurposeInvalid].contains(error.code), "\(error)")
        }
    }

    @Test("an x5c of two certificates is refused: unexpectedChainLength")
    func twoCertificates() throws {
        let verifier = try JWSVerifier(trustedRoots: [JWSFixtures.certificate("asslp_x509test_ROOT_CA.der")])
        let jws = try Self.mint(["LEAF_CERT", "INTERMEDIATE_CA"])
        JWSFixtures.expectCode(.unexpectedChainLength) { _ = try verifier.verify(jws, options: Self.chainOptions()) }
    }

    @Test("bad base64 and bad DER in x5c are refused: certificateMalformed")
    func badCertificates() throws {
        let verifier = try JWSVerifier(trustedRoots: [JWSFixtures.certificate("asslp_x509test_ROOT_CA.der")])
        let jws = try CompactJWS(Self.mint())
        let chain = try #require(jws.certificateChain)
        for index in 0..<3 {
            for replacement in ["abc!", "AAAA", Data([0x30, 0x03, 0x02, 0x01, 0x01]).base64EncodedString()] {
                var entries = chain
                entries[index] = replacement
                let header: [String: Any] = ["alg": "ES256", "x5c": entries]
                let text = try JWSTamper.reassemble(jws, header: header)
                JWSFixtures.expectCode(.certificateMalformed, "x5c[\(index)] = \(replacement)") {
                    _ = try verifier.verify(text, options: Self.chainOptions())
                }
            }
        }
    }
}
