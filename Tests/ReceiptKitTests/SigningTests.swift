import Foundation
import ReceiptKit
import TestSupport
import Testing

@Suite("Issuing receipts like the App Store")
struct SigningTests {
    @Test("an issued receipt verifies against the test root and carries the same receipt")
    func issueAndVerify() throws {
        let receipt = Issuing.receipt()
        let signed = try ReceiptSigner().sign(receipt)
        let verified = try Issuing.verifier().verify(
            signed,
            options: .init(
                bundleIdentifier: "com.example.app", applicationVersion: "7",
                deviceIdentifier: Issuing.device))
        #expect(Set(verified.receipt.inAppPurchases) == Set(receipt.inAppPurchases))
        #expect(verified.receipt.bundleIdentifier == receipt.bundleIdentifier)
        #expect(verified.receipt.creationDate == receipt.creationDate)
        #expect(verified.digestAlgorithm == .sha256)
        #expect(!verified.isXcodeReceipt)
        #expect(verified.certificateChain == ReceiptSigningIdentity.openStoreKitTest.certificates)
        #expect(verified.verificationDate == Fixtures.issueDate)
    }

    @Test("SHA-1 signing works too, for legacy-shaped receipts")
    func sha1() throws {
        let signed = try ReceiptSigner(digestAlgorithm: .sha1).sign(Issuing.receipt())
        #expect(try Issuing.verifier().verify(signed).digestAlgorithm == .sha1)
    }

    @Test("the same payload signs to the same bytes")
    func deterministic() throws {
        let payload = Issuing.receipt().derEncoded()
        #expect(try ReceiptSigner().sign(payload: payload) == ReceiptSigner().sign(payload: payload))
    }

    @Test("the container has Apple's shape: DER, leaf-intermediate-root, no signed attributes")
    func shape() throws {
        let payload = Issuing.receipt().derEncoded()
        let signed = try ReceiptSigner().sign(payload: payload)
        let contentInfo = try ASN1Node(parsing: signed, rules: .der)
        #expect(contentInfo.children[0].joinedBytes == [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02])
        let signedData = contentInfo.children[1].children[0]
        #expect(signedData.children.count == 5)
        #expect(signedData.children[0].joinedBytes == [1])
        #expect(signedData.children[2].children[1].children[0].joinedBytes == payload)
        let certificates = signedData.children[3]
        #expect(certificates.tag == .contextSpecific(0))
        #expect(
            certificates.children.map { $0.derEncoded() }
                == ReceiptSigningIdentity.openStoreKitTest.certificates.map(\.derEncoded))
        let signerInfo = signedData.children[4].children[0]
        // version, issuerAndSerialNumber, digestAlgorithm, signatureAlgorithm, signature: no [0] signed attributes.
        #expect(signerInfo.children.map(\.tag) == [.integer, .sequence, .sequence, .sequence, .octetString])
        #expect(signerInfo.children[4].joinedBytes.count == 256)
        #expect(
            signerInfo.children[3].children[0].joinedBytes == [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01])
    }

    @Test(
        "openssl cms and smime verify issued receipts against the test root", .enabled(if: OpenSSLCommand.isAvailable))
    func opensslVerifies() throws {
        let temporary = try TemporaryDirectory(prefix: "receiptkit")
        defer { temporary.remove() }
        let directory = temporary.url
        let payload = Issuing.receipt().derEncoded()
        let receiptPath = directory.appendingPathComponent("receipt.der").path
        let outPath = directory.appendingPathComponent("out.der").path
        try Data(ReceiptSigner().sign(payload: payload)).write(to: URL(fileURLWithPath: receiptPath))
        let root = Fixtures.pkiDirectory + "/root.pem"
        let attime = String(Int(Fixtures.issueDate.timeIntervalSince1970))
        for command in ["cms", "smime"] {
            let (status, output) = try OpenSSLCommand.run([
                command, "-verify", "-inform", "DER", "-in", receiptPath, "-CAfile", root, "-binary", "-attime",
                attime, "-out", outPath,
            ])
            #expect(status == 0, "openssl \(command) -verify: \(output)")
            #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: outPath))) == payload)
        }
        // A wrong root is refused by OpenSSL too.
        let (status, _) = try OpenSSLCommand.run([
            "cms", "-verify", "-inform", "DER", "-in", receiptPath, "-CAfile",
            Fixtures.pkiDirectory + "/other-root.pem",
            "-binary", "-attime", attime, "-out", outPath,
        ])
        #expect(status != 0)
    }

    @Test(
        "the signature equals openssl's RSA-SHA256 signature of the payload", .enabled(if: OpenSSLCommand.isAvailable))
    func signatureMatchesOpenSSL() throws {
        let temporary = try TemporaryDirectory(prefix: "receiptkit")
        defer { temporary.remove() }
        let directory = temporary.url
        let payload = Issuing.receipt().derEncoded()
        let payloadPath = directory.appendingPathComponent("payload.der").path
        let signaturePath = directory.appendingPathComponent("signature.bin").path
        try Data(payload).write(to: URL(fileURLWithPath: payloadPath))
        let (status, output) = try OpenSSLCommand.run([
            "dgst", "-sha256", "-sign", Fixtures.pkiDirectory + "/leaf.key", "-out", signaturePath, payloadPath,
        ])
        try #require(status == 0, "openssl dgst: \(output)")
        let expected = [UInt8](try Data(contentsOf: URL(fileURLWithPath: signaturePath)))
        let signed = try ReceiptSigner().sign(payload: payload)
        #expect(Array(signed.suffix(256)) == expected)
    }

    @Test(
        "receipts signed by openssl (signed attributes, sorted certificates) verify",
        .enabled(if: OpenSSLCommand.isAvailable), arguments: [false, true])
    func opensslSignedReceipts(noAttributes: Bool) throws {
        let temporary = try TemporaryDirectory(prefix: "receiptkit")
        defer { temporary.remove() }
        let directory = temporary.url
        let receipt = Issuing.receipt(purchases: 3)
        let payloadPath = directory.appendingPathComponent("payload.der").path
        let chainPath = directory.appendingPathComponent("chain.pem").path
        let receiptPath = directory.appendingPathComponent("receipt.der").path
        try Data(receipt.derEncoded()).write(to: URL(fileURLWithPath: payloadPath))
        let chain = try ["intermediate", "root"].map {
            try String(contentsOfFile: Fixtures.pkiDirectory + "/\($0).pem", encoding: .utf8)
        }.joined()
        try chain.write(toFile: chainPath, atomically: true, encoding: .utf8)
        var arguments = [
            "cms", "-sign", "-binary", "-nodetach", "-md", "sha256", "-in", payloadPath, "-signer",
            Fixtures.pkiDirectory + "/leaf.pem", "-inkey", Fixtures.pkiDirectory + "/leaf.key", "-certfile", chainPath,
            "-outform", "DER", "-out", receiptPath,
        ]
        if noAttributes { arguments.append("-noattr") }
        let (status, output) = try OpenSSLCommand.run(arguments)
        try #require(status == 0, "openssl cms -sign: \(output)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: receiptPath)))
        let verified = try Issuing.verifier().verify(bytes)
        #expect(verified.receipt.bundleIdentifier == "com.example.app")
        #expect(verified.certificateChain.count == 3)
    }

    @Test("signing identities are checked")
    func identities() throws {
        let leaf = try Fixtures.pkiCertificate("leaf")
        let otherKey = try String(contentsOfFile: Fixtures.pkiDirectory + "/leaf-expired.key", encoding: .utf8)
        #expect(throws: ReceiptError(.invalidSigningIdentity)) {
            try ReceiptSigningIdentity(certificates: [leaf], privateKeyPEM: otherKey)
        }
        #expect(throws: ReceiptError(.privateKeyUnreadable)) {
            try ReceiptSigningIdentity(certificates: [leaf], privateKeyPEM: "not a key")
        }
        #expect(throws: ReceiptError(.invalidSigningIdentity)) {
            try ReceiptSigningIdentity(certificates: [], privateKeyPEM: otherKey)
        }
        let bundle = try ["leaf.pem", "intermediate.pem", "root.pem", "leaf.key"].map {
            try String(contentsOfFile: Fixtures.pkiDirectory + "/" + $0, encoding: .utf8)
        }.joined()
        let identity = try ReceiptSigningIdentity(pemEncoded: bundle)
        #expect(identity.certificates == ReceiptSigningIdentity.openStoreKitTest.certificates)
        #expect(identity.leafCertificate.subject.contains("OpenStoreKit Test Receipt Signing"))
    }

    @Test("the embedded test identity is the one in Receipts/pki")
    func embeddedIdentity() throws {
        #expect(X509Certificate.openStoreKitTestRoot == (try Fixtures.pkiCertificate("root")))
        #expect(
            ReceiptSigningIdentity.openStoreKitTest.certificates == [
                try Fixtures.pkiCertificate("leaf"), try Fixtures.pkiCertificate("intermediate"),
                try Fixtures.pkiCertificate("root"),
            ])
        let root = X509Certificate.openStoreKitTestRoot
        #expect(root.notBefore == Date(timeIntervalSince1970: 1_577_836_800))  // 2020-01-01
        #expect(root.notAfter == Date(timeIntervalSince1970: 2_840_140_800))  // 2060-01-01
    }
}
