import Foundation
import ReceiptKit
import TestSupport
import Testing

@Suite("Verification failures, each with its own code")
struct NegativeTests {
    static func sign(
        leaf: String, intermediate: String = "intermediate", created: Date = Fixtures.issueDate
    ) throws -> [UInt8] {
        let identity = try Fixtures.identity(leaf: leaf, intermediate: intermediate)
        return try ReceiptSigner(identity: identity).sign(Issuing.receipt(purchases: 2, created: created))
    }

    @Test("wrong root")
    func wrongRoot() throws {
        let signed = try ReceiptSigner().sign(Issuing.receipt())
        let verifier = try ReceiptVerifier(trustedRoots: [Fixtures.pkiCertificate("other-root")])
        #expect(throws: ReceiptError(.chainNotTrusted)) { try verifier.verify(signed) }
        let nothing = try ReceiptVerifier(trustedRoots: [])
        #expect(throws: ReceiptError(.chainNotTrusted)) { try nothing.verify(signed) }
    }

    @Test("the test root is trusted only when asked")
    func testRootOnlyWhenAsked() throws {
        let signed = try ReceiptSigner().sign(Issuing.receipt(purchases: 1))
        let apple = try Fixtures.pkiCertificate("other-root")
        #expect(throws: ReceiptError(.chainNotTrusted)) {
            try ReceiptVerifier(trustedRoots: [apple], trustsTestRoot: false).verify(signed)
        }
        let asked = try ReceiptVerifier(trustedRoots: [apple], trustsTestRoot: true)
        #expect(asked.trustedRoots == [apple, .openStoreKitTestRoot])
        #expect(throws: Never.self) { try asked.verify(signed) }
    }

    @Test("wrong bundle identifier and wrong application version")
    func wrongApplication() throws {
        let signed = try ReceiptSigner().sign(Issuing.receipt())
        let verifier = try Issuing.verifier()
        let error = try #require(throws: ReceiptError.self) {
            try verifier.verify(signed, options: .init(bundleIdentifier: "com.example.other"))
        }
        #expect(error.code == .bundleIdentifierMismatch)
        #expect(error.detail.contains("com.example.app"))
        // The whole identifier must match: a prefix, an extension or a change of case is another app.
        for other in ["com.example", "com.example.app.pro", "com.example.ap", "COM.EXAMPLE.APP"] {
            #expect(throws: ReceiptError(.bundleIdentifierMismatch), "\(other)") {
                try verifier.verify(signed, options: .init(bundleIdentifier: other))
            }
        }
        #expect(throws: Never.self) { try verifier.verify(signed, options: .init(bundleIdentifier: "com.example.app")) }
        #expect(throws: ReceiptError(.applicationVersionMismatch)) {
            try verifier.verify(signed, options: .init(applicationVersion: "8"))
        }
        #expect(throws: ReceiptError(.applicationVersionMismatch)) {
            try verifier.verify(signed, options: .init(applicationVersion: "70"))
        }
    }

    @Test("wrong device, as a UUID and as a MAC address")
    func wrongDevice() throws {
        let signed = try ReceiptSigner().sign(Issuing.receipt())
        let verifier = try Issuing.verifier()
        #expect(throws: Never.self) { try verifier.verify(signed, options: .init(deviceIdentifier: Issuing.device)) }
        for other in ["11111111-2222-3333-4444-555555555556", "6c:40:08:b5:94:5e"] {
            #expect(throws: ReceiptError(.deviceHashMismatch)) {
                try verifier.verify(signed, options: .init(deviceIdentifier: try DeviceIdentifier(parsing: other)))
            }
        }
        #expect(throws: ReceiptError(.invalidDeviceIdentifier)) { try DeviceIdentifier(parsing: "1234") }
        #expect(throws: ReceiptError(.invalidDeviceIdentifier)) { try DeviceIdentifier(parsing: "zz:40:08:b5:94:5e") }
        #expect(throws: ReceiptError(.invalidDeviceIdentifier)) { try DeviceIdentifier(bytes: [1, 2, 3]) }
        #expect(try DeviceIdentifier(parsing: "6C4008B5945E").description == "6c:40:08:b5:94:5e")
        #expect(Issuing.device.description == "11111111-2222-3333-4444-555555555555")
        #expect(DeviceIdentifier(uuid: UUID(uuidString: "11111111-2222-3333-4444-555555555555")!) == Issuing.device)
    }

    @Test("expired leaf: fails at the creation date, passes inside its validity")
    func expiredLeaf() throws {
        let signed = try Self.sign(leaf: "leaf-expired")
        let verifier = try Issuing.verifier()
        let error = try #require(throws: ReceiptError.self) { try verifier.verify(signed) }
        #expect(error.code == .certificateExpired)
        #expect(error.detail.contains("signing certificate"))
        let inside = Date(timeIntervalSince1970: 1_590_969_600)  // 2020-06-01
        #expect(throws: Never.self) { try verifier.verify(signed, options: .init(time: .date(inside))) }
    }

    @Test("not-yet-valid leaf")
    func notYetValidLeaf() throws {
        let signed = try Self.sign(leaf: "leaf-not-yet-valid")
        #expect(throws: ReceiptError(.certificateNotYetValid)) { try Issuing.verifier().verify(signed) }
    }

    @Test("the verification time: creation date, a given date, or now")
    func verificationTime() throws {
        let signed = try ReceiptSigner().sign(Issuing.receipt())
        let verifier = try Issuing.verifier()
        let before = Date(timeIntervalSince1970: 1_500_000_000)  // 2017, before the test PKI
        #expect(throws: ReceiptError(.certificateNotYetValid)) {
            try verifier.verify(signed, options: .init(time: .date(before)))
        }
        let after = Date(timeIntervalSince1970: 3_000_000_000)  // 2065, after it
        #expect(throws: ReceiptError(.certificateExpired)) {
            try verifier.verify(signed, options: .init(time: .date(after)))
        }
        #expect(throws: ReceiptError(.certificateNotYetValid)) {
            try verifier.verify(signed, options: .init(time: .date(Date(timeIntervalSince1970: .nan))))
        }
        let now = try verifier.verify(signed, options: .init(time: .now))
        #expect(now.verificationDate > Fixtures.issueDate)
    }

    @Test("missing marker OIDs on the leaf, then on the intermediate")
    func missingMarkers() throws {
        let verifier = try Issuing.verifier()
        #expect(throws: ReceiptError(.missingReceiptSigningMarker)) {
            try verifier.verify(Self.sign(leaf: "leaf-unmarked"))
        }
        #expect(throws: ReceiptError(.missingIntermediateMarker)) {
            try verifier.verify(Self.sign(leaf: "leaf-under-unmarked", intermediate: "intermediate-unmarked"))
        }
        // Allowing Xcode receipts does not relax the policy for chained receipts.
        #expect(throws: ReceiptError(.missingReceiptSigningMarker)) {
            try verifier.verify(Self.sign(leaf: "leaf-unmarked"), options: .init(allowsXcodeReceipts: true))
        }
    }

    @Test("a receipt without its intermediate does not chain; one with an extra certificate is refused")
    func certificateSet() throws {
        let key = try String(contentsOfFile: Fixtures.pkiDirectory + "/leaf.key", encoding: .utf8)
        let leafOnly = try ReceiptSigningIdentity(certificates: [Fixtures.pkiCertificate("leaf")], privateKeyPEM: key)
        let receipt = Issuing.receipt(purchases: 1)
        #expect(throws: ReceiptError(.chainNotTrusted)) {
            try Issuing.verifier().verify(ReceiptSigner(identity: leafOnly).sign(receipt))
        }
        let extra = try ReceiptSigningIdentity(
            certificates: ReceiptSigningIdentity.openStoreKitTest.certificates + [
                Fixtures.pkiCertificate("other-root")
            ],
            privateKeyPEM: key)
        let error = try #require(throws: ReceiptError.self) {
            try Issuing.verifier().verify(ReceiptSigner(identity: extra).sign(receipt))
        }
        #expect(error.code == .extraneousCertificate)
        #expect(error.offset != nil)
    }

    @Test("a self-signed trusted certificate is an Xcode-style receipt, refused unless allowed")
    func selfSignedTrusted() throws {
        let key = try String(contentsOfFile: Fixtures.pkiDirectory + "/root.key", encoding: .utf8)
        let root = try Fixtures.pkiCertificate("root")
        let selfSigned = try ReceiptSigner(identity: ReceiptSigningIdentity(certificates: [root], privateKeyPEM: key))
            .sign(Issuing.receipt(purchases: 1))
        let verifier = try Issuing.verifier()
        #expect(throws: ReceiptError(.xcodeReceiptNotAllowed)) { try verifier.verify(selfSigned) }
        let verified = try verifier.verify(selfSigned, options: .init(allowsXcodeReceipts: true))
        #expect(verified.isXcodeReceipt)
        #expect(verified.certificateChain == [root])
        // Now cached: still refused when not allowed.
        #expect(throws: ReceiptError(.xcodeReceiptNotAllowed)) { try verifier.verify(selfSigned) }
    }

    @Test("truncated input fails with truncation at every length")
    func truncated() throws {
        let signed = try ReceiptSigner().sign(Issuing.receipt())
        let verifier = try Issuing.verifier()
        #expect(throws: ReceiptError(.notPKCS7)) { try verifier.verify([]) }
        var length = 1
        while length < signed.count {
            let error = try #require(throws: ReceiptError.self) { try verifier.verify(Array(signed.prefix(length))) }
            #expect(error.code == .truncated, "prefix of \(length) bytes: \(error)")
            length += length < 64 ? 1 : 97
        }
    }

    @Test("trailing bytes are refused at the offset where they start")
    func trailing() throws {
        let signed = try ReceiptSigner().sign(Issuing.receipt())
        for extra in [[UInt8](arrayLiteral: 0), [0x0A], [0x30, 0x00]] {
            let error = try #require(throws: ReceiptError.self) { try Issuing.verifier().verify(signed + extra) }
            #expect(error.code == .trailingBytes)
            #expect(error.offset == signed.count)
        }
    }

    @Test("a receipt of more than 1 MB verifies and parses")
    func oneMegabyte() throws {
        let receipt = Issuing.receipt(purchases: 4000)
        let signed = try ReceiptSigner().sign(receipt)
        #expect(signed.count > 1_000_000)
        let verified = try Issuing.verifier().verify(signed, options: .init(deviceIdentifier: Issuing.device))
        #expect(verified.receipt.inAppPurchases.count == 4000)
        #expect(Set(verified.receipt.inAppPurchases) == Set(receipt.inAppPurchases))
    }

    @Test("not a receipt: other content types and structures")
    func notReceipts() throws {
        let verifier = try Issuing.verifier()
        let certificate = try Fixtures.pkiCertificate("root").derEncoded
        #expect(throws: ReceiptError(.notPKCS7)) { try verifier.verify(certificate) }
        #expect(throws: ReceiptError(.notPKCS7)) { try verifier.verify(Array("<?xml version=\"1.0\"?>".utf8)) }
        var envelopedData = DERWriter()
        envelopedData.appendSequence { $0.appendObjectIdentifier([1, 2, 840, 113_549, 1, 7, 3]) }
        #expect(throws: ReceiptError(.unsupportedContentType)) { try verifier.verify(envelopedData.bytes) }
        var detached = DERWriter()
        detached.appendSequence { contentInfo in
            contentInfo.appendObjectIdentifier([1, 2, 840, 113_549, 1, 7, 2])
            contentInfo.appendConstructed(.contextSpecific(0)) { explicit in
                explicit.appendSequence { signedData in
                    signedData.appendInteger(1)
                    signedData.appendSetOf { _ in }
                    signedData.appendSequence { $0.appendObjectIdentifier([1, 2, 840, 113_549, 1, 7, 1]) }
                    signedData.appendSetOf { _ in }
                }
            }
        }
        #expect(throws: ReceiptError(.missingPayload)) { try verifier.verify(detached.bytes) }
    }
}
