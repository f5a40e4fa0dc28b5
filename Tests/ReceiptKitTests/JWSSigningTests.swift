import Foundation
import ReceiptKit
import StoreModels
import TestSupport
import Testing

@Suite("JWS: signing with the test PKI")
struct JWSSigningTests {
    static let verifier: JWSVerifier = {
        do {
            return try JWSVerifier(trustedRoots: [.openStoreKitJWSTestRoot])
        } catch {
            fatalError("\(error)")
        }
    }()

    @Test("a signed transaction has Apple's header and a 64-byte signature, and verifies under the JWS test root")
    func signAndVerify() throws {
        let transaction = JWSFixtures.transaction()
        let jws = try JWSSigner().sign(transaction)
        let decoded = try CompactJWS(jws)
        #expect(decoded.algorithm == "ES256")
        #expect(decoded.keyIdentifier == nil)
        #expect(decoded.signature.count == 64)
        let header = try #require(try JSONSerialization.jsonObject(with: Data(decoded.headerJSON)) as? [String: Any])
        #expect(Set(header.keys) == ["alg", "x5c"])
        let identity = JWSSigningIdentity.openStoreKitTest
        #expect(decoded.certificateChain == identity.certificates.map { Data($0.derEncoded).base64EncodedString() })
        #expect(jws.split(separator: ".").allSatisfy { !$0.contains("=") && !$0.contains("+") && !$0.contains("/") })

        let verified = try Self.verifier.verify(
            jws, options: JWSVerificationOptions(bundleIdentifier: "com.example.app", environment: .sandbox))
        #expect(try verified.decode(JWSTransaction.self) == transaction)
        #expect(verified.verificationDate == Date(timeIntervalSince1970: 1_736_935_200))
        #expect(verified.certificateChain.map(\.derEncoded) == identity.certificates.map(\.derEncoded))
        #expect(!verified.isXcodeSigned)
    }

    @Test("payloads use Apple's keys and wire types: milliseconds, milli-unit prices, raw enumeration values")
    func payloadKeys() throws {
        let jws = try CompactJWS(JWSSigner().sign(JWSFixtures.transaction()))
        let payload = try #require(try JSONSerialization.jsonObject(with: Data(jws.payloadJSON)) as? [String: Any])
        #expect(payload["transactionId"] as? String == "2000000000000001")
        #expect(payload["bundleId"] as? String == "com.example.app")
        #expect(payload["purchaseDate"] as? Int64 == 1_736_935_200_000)
        #expect(payload["signedDate"] as? Int64 == 1_736_935_200_123)
        #expect(payload["price"] as? Int64 == 4990)
        #expect(payload["type"] as? String == "Auto-Renewable Subscription")
        #expect(payload["inAppOwnershipType"] as? String == "PURCHASED")
        #expect(payload["transactionReason"] as? String == "PURCHASE")
        #expect(payload["environment"] as? String == "Sandbox")
        #expect(payload["offerType"] as? Int == 1)
        #expect(payload["offerDiscountType"] as? String == "FREE_TRIAL")
        #expect(payload["quantity"] as? Int == 1)
        #expect(payload["revocationDate"] == nil, "absent fields are left out")
    }

    @Test("renewal info and app transactions sign and decode; the app transaction's time is its receiptCreationDate")
    func otherPayloads() throws {
        var renewal = JWSRenewalInfo()
        renewal.originalTransactionId = "2000000000000001"
        renewal.productId = "com.example.premium.monthly"
        renewal.autoRenewProductId = "com.example.premium.monthly"
        renewal.autoRenewStatus = .on
        renewal.expirationIntent = .billingError
        renewal.priceIncreaseStatus = .notResponded
        renewal.isInBillingRetryPeriod = true
        renewal.renewalPrice = 4990
        renewal.currency = "USD"
        renewal.environment = .production
        renewal.signedDate = JWSDate(millisecondsSince1970: 1_736_935_200_000)
        renewal.eligibleWinBackOfferIds = ["win.back.1"]
        let verifiedRenewal = try Self.verifier.verify(
            JWSSigner().sign(renewal),
            options: JWSVerificationOptions(bundleIdentifier: "com.example.app", environment: .production))
        #expect(try verifiedRenewal.decode(JWSRenewalInfo.self) == renewal)

        var app = JWSAppTransaction()
        app.receiptType = .sandbox
        app.bundleId = "com.example.app"
        app.appAppleId = 1234
        app.applicationVersion = "2"
        app.originalApplicationVersion = "1"
        app.receiptCreationDate = JWSDate(millisecondsSince1970: 1_700_000_000_999)
        app.originalPurchaseDate = JWSDate(millisecondsSince1970: 1_600_000_000_000)
        let verifiedApp = try Self.verifier.verify(
            JWSSigner().sign(app), options: JWSVerificationOptions(bundleIdentifier: "com.example.app"))
        #expect(verifiedApp.verificationDate == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(verifiedApp.environment == .sandbox)
        #expect(try verifiedApp.decode(JWSAppTransaction.self) == app)
    }

    @Test("JSON payloads sign as given; what is not a JSON object is refused")
    func jsonPayloads() throws {
        let json = Array(#"{"bundleId":"com.example.app","environment":"Sandbox","signedDate":1736935200000}"#.utf8)
        let jws = try JWSSigner().sign(payloadJSON: json)
        #expect(try Self.verifier.verify(jws).payloadJSON == json)
        for bad in ["[1]", "\"x\"", "{", ""] {
            JWSFixtures.expectCode(.invalidJWS, "\(bad)") { _ = try JWSSigner().sign(payloadJSON: Array(bad.utf8)) }
        }
    }

    @Test("a kid and a file name are escaped as all JSON the project writes: read back as given")
    func escaping() throws {
        let odd = "a\"b\\c/d\u{7F}e\u{1}f\ng\u{E9}"
        let key = try String(contentsOfFile: JWSFixtures.pkiDirectory + "/leaf.key", encoding: .utf8)
        let identity = try JWSSigningIdentity(
            certificates: [
                JWSFixtures.pkiCertificate("leaf"), JWSFixtures.pkiCertificate("intermediate"),
                JWSFixtures.pkiCertificate("root"),
            ],
            privateKeyPEM: key, keyIdentifier: odd)
        let jws = try CompactJWS(try JWSSigner(identity: identity).sign(JWSFixtures.transaction()))
        #expect(jws.keyIdentifier == odd)
        let header = String(decoding: jws.headerJSON, as: UTF8.self)
        #expect(header.contains(#""kid":""# + JSONValue.escaped(odd) + "\""), "\(header)")
        let document = JWSJSON.document(for: jws, file: odd, prettyPrinted: false)
        #expect(document.hasPrefix(#"{"file":""# + JSONValue.escaped(odd) + "\","), "\(document)")
        let object = try JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String: Any]
        #expect(object?["file"] as? String == odd)
    }

    @Test("the Xcode-shaped signer makes a one-certificate x5c with kid Apple_Xcode_Key, verified only when allowed")
    func xcodeShaped() throws {
        let signer = JWSSigner(identity: .openStoreKitXcode)
        let jws = try signer.sign(JWSFixtures.transaction(environment: .xcode))
        let decoded = try CompactJWS(jws)
        #expect(decoded.keyIdentifier == "Apple_Xcode_Key")
        #expect(decoded.certificateChain?.count == 1)
        let verifier = try JWSVerifier(trustedRoots: [.openStoreKitXcodeTestCertificate])
        let verified = try verifier.verify(jws, options: JWSVerificationOptions(environment: .xcode, allowsXcode: true))
        #expect(verified.isXcodeSigned)
        JWSFixtures.expectCode(.xcodeJWSNotAllowed) { _ = try verifier.verify(jws) }
        JWSFixtures.expectCode(.chainNotTrusted) {
            _ = try Self.verifier.verify(jws, options: JWSVerificationOptions(allowsXcode: true))
        }
        // An Xcode-signed payload claiming another environment is refused even when Xcode data is allowed.
        let sandbox = try signer.sign(JWSFixtures.transaction(environment: .sandbox))
        JWSFixtures.expectCode(.environmentMismatch) {
            _ = try verifier.verify(sandbox, options: JWSVerificationOptions(allowsXcode: true))
        }
    }

    @Test("identities refuse RSA keys and keys of another certificate")
    func identities() throws {
        let rsaKey = try String(contentsOfFile: Fixtures.pkiDirectory + "/leaf.key", encoding: .utf8)
        JWSFixtures.expectCode(.invalidSigningIdentity) {
            _ = try JWSSigningIdentity(certificates: [Fixtures.pkiCertificate("leaf")], privateKeyPEM: rsaKey)
        }
        let otherKey = try String(contentsOfFile: JWSFixtures.pkiDirectory + "/other-root.key", encoding: .utf8)
        JWSFixtures.expectCode(.invalidSigningIdentity) {
            _ = try JWSSigningIdentity(certificates: [JWSFixtures.pkiCertificate("leaf")], privateKeyPEM: otherKey)
        }
        JWSFixtures.expectCode(.invalidSigningIdentity) {
            _ = try JWSSigningIdentity(certificates: [], privateKeyPEM: otherKey)
        }
    }

    @Test(
        "OpenSSL's command line verifies our signature (R||S converted to DER) and our chain under strict rules",
        .enabled(if: OpenSSLCommand.isAvailable, "the openssl command is not installed"))
    func openSSLAgrees() throws {
        let jws = try CompactJWS(JWSSigner().sign(JWSFixtures.transaction()))
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.url
        let input = directory.appendingPathComponent("input")
        let signature = directory.appendingPathComponent("signature.der")
        let key = directory.appendingPathComponent("leaf-key.pem")
        let leaf = directory.appendingPathComponent("leaf.pem")
        let signingInput = JWSTamper.base64URL(jws.headerJSON)
        try Data((signingInput + "." + JWSTamper.base64URL(jws.payloadJSON)).utf8).write(to: input)
        try Data(JWSTamper.derSignature(jws.signature)).write(to: signature)
        let x5c = try #require(jws.certificateChain)
        let leafDER = try #require(Data(base64Encoded: x5c[0]))
        try leafDER.write(to: directory.appendingPathComponent("leaf.der"))
        var result = try OpenSSLCommand.run([
            "x509", "-inform", "DER", "-in", directory.appendingPathComponent("leaf.der").path, "-out", leaf.path,
        ])
        #expect(result.status == 0, "\(result.output)")
        result = try OpenSSLCommand.run(["x509", "-in", leaf.path, "-pubkey", "-noout", "-out", key.path])
        #expect(result.status == 0, "\(result.output)")
        result = try OpenSSLCommand.run([
            "dgst", "-sha256", "-verify", key.path, "-signature", signature.path, input.path,
        ])
        #expect(result.status == 0 && result.output.contains("Verified OK"), "\(result.output)")
        // A flipped byte of the signing input fails in OpenSSL too.
        var tampered = try Data(contentsOf: input)
        tampered[tampered.count - 1] ^= 0x01
        try tampered.write(to: input)
        result = try OpenSSLCommand.run([
            "dgst", "-sha256", "-verify", key.path, "-signature", signature.path, input.path,
        ])
        #expect(result.status != 0, "\(result.output)")

        let pki = JWSFixtures.pkiDirectory
        result = try OpenSSLCommand.run([
            "verify", "-x509_strict", "-CAfile", pki + "/root.pem", "-untrusted", pki + "/intermediate.pem", leaf.path,
        ])
        #expect(result.status == 0, "\(result.output)")
    }
}
