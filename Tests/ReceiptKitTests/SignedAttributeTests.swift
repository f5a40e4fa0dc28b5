import Foundation
import ReceiptKit
import TestSupport
import Testing

/// Receipts signed by `openssl cms` WITH signed attributes: the signature covers the attributes, and only the
/// messageDigest attribute ties them to the payload, so the verifier must compare it with the payload's digest.
@Suite("Signed attributes: the messageDigest must match the payload", .enabled(if: OpenSSLCommand.isAvailable))
struct SignedAttributeTests {
    /// A receipt signed by OpenSSL with its default signed attributes, and where its parts lie.
    struct Signed {
        var bytes: [UInt8]
        var payload: Range<Int>
        var messageDigest: Range<Int>
        var receipt: AppReceipt
    }

    /// The DER of the messageDigest attribute's type and the start of its value: OID, SET, OCTET STRING of 32 bytes.
    static let messageDigestPrefix: [UInt8] = [
        0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x04, 0x31, 0x22, 0x04, 0x20,
    ]

    static func signed(_ receipt: AppReceipt = Issuing.receipt(purchases: 3)) throws -> Signed {
        let temporary = try TemporaryDirectory(prefix: "receiptkit")
        defer { temporary.remove() }
        let payload = receipt.derEncoded()
        try Data(payload).write(to: URL(fileURLWithPath: temporary.file("payload.der")))
        let chain = try ["intermediate", "root"].map {
            try String(contentsOfFile: Fixtures.pkiDirectory + "/\($0).pem", encoding: .utf8)
        }.joined()
        try chain.write(toFile: temporary.file("chain.pem"), atomically: true, encoding: .utf8)
        let (status, output) = try OpenSSLCommand.run([
            "cms", "-sign", "-binary", "-nodetach", "-md", "sha256", "-in", temporary.file("payload.der"),
            "-signer", Fixtures.pkiDirectory + "/leaf.pem", "-inkey", Fixtures.pkiDirectory + "/leaf.key",
            "-certfile", temporary.file("chain.pem"), "-outform", "DER", "-out", temporary.file("receipt.der"),
        ])
        try #require(status == 0, "openssl cms -sign: \(output)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: temporary.file("receipt.der"))))
        let payloadRange = try #require(bytes.firstRange(of: payload))
        let prefix = try #require(bytes.firstRange(of: messageDigestPrefix), "no SHA-256 messageDigest attribute")
        return Signed(
            bytes: bytes, payload: payloadRange, messageDigest: prefix.upperBound..<(prefix.upperBound + 32),
            receipt: receipt)
    }

    /// SHA-256 of `bytes`, computed by `openssl dgst`.
    static func sha256(_ bytes: [UInt8]) throws -> [UInt8] {
        let temporary = try TemporaryDirectory(prefix: "receiptkit")
        defer { temporary.remove() }
        try Data(bytes).write(to: URL(fileURLWithPath: temporary.file("in")))
        let (status, output) = try OpenSSLCommand.run([
            "dgst", "-sha256", "-binary", "-out", temporary.file("out"), temporary.file("in"),
        ])
        try #require(status == 0, "openssl dgst: \(output)")
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: temporary.file("out"))))
    }

    @Test("the untouched receipt verifies, and its messageDigest is the payload's SHA-256")
    func untouched() throws {
        let signed = try Self.signed()
        let verified = try Issuing.verifier().verify(signed.bytes)
        #expect(verified.receipt.derEncoded() == signed.receipt.derEncoded())
        let payload = Array(signed.bytes[signed.payload])
        let digest = try Self.sha256(payload)
        #expect(Array(signed.bytes[signed.messageDigest]) == digest)
    }

    @Test("a payload byte changed after signing is refused at the messageDigest", arguments: [0, 1, 2])
    func payloadChanged(which: Int) throws {
        let signed = try Self.signed()
        let verifier = try Issuing.verifier()
        // A byte in the first, middle and last part of the payload: the signature over the attributes still holds.
        let position = signed.payload.lowerBound + (signed.payload.count - 1) * which / 2
        var tampered = signed.bytes
        tampered[position] ^= 0x01
        let error = try #require(throws: ReceiptError.self) { try verifier.verify(tampered) }
        #expect(error.code == .signatureInvalid, "payload byte \(position): \(error)")
        #expect(error.offset == signed.messageDigest.lowerBound)
        #expect(error.message.contains("messageDigest does not match the payload"))
    }

    @Test("a replaced messageDigest attribute is refused, before the signature is even checked")
    func messageDigestReplaced() throws {
        let signed = try Self.signed()
        let verifier = try Issuing.verifier()
        var tampered = signed.bytes
        tampered.replaceSubrange(signed.messageDigest, with: try Self.sha256(Array("another payload".utf8)))
        let error = try #require(throws: ReceiptError.self) { try verifier.verify(tampered) }
        #expect(error.code == .signatureInvalid)
        #expect(error.offset == signed.messageDigest.lowerBound)
        #expect(error.message.contains("messageDigest does not match the payload"))
    }

    @Test("a payload changed together with its messageDigest is refused by the signature over the attributes")
    func payloadAndDigestChanged() throws {
        let signed = try Self.signed()
        let verifier = try Issuing.verifier()
        var tampered = signed.bytes
        tampered[signed.payload.upperBound - 1] ^= 0x01
        tampered.replaceSubrange(signed.messageDigest, with: try Self.sha256(Array(tampered[signed.payload])))
        let error = try #require(throws: ReceiptError.self) { try verifier.verify(tampered) }
        #expect(error.code == .signatureInvalid)
        #expect(error.offset != signed.messageDigest.lowerBound, "the digest matches; the signature must not")
        #expect(error.message.contains("signature does not verify"))
    }

    /// The contentType attribute as OpenSSL writes it: type OID, SET, the OID of data (1.2.840.113549.1.7.1).
    static let contentTypeAttribute: [UInt8] = [
        0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x03, 0x31, 0x0B,
        0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01,
    ]

    @Test("a signed contentType attribute that is not data is refused")
    func contentTypeNotData() throws {
        let signed = try Self.signed()
        let attribute = try #require(signed.bytes.firstRange(of: Self.contentTypeAttribute))
        var tampered = signed.bytes
        tampered[attribute.upperBound - 1] = 0x02  // 1.2.840.113549.1.7.2, signedData
        let error = try #require(throws: ReceiptError.self) { try Issuing.verifier().verify(tampered) }
        #expect(error.code == .invalidSignedData)
        #expect(error.offset == attribute.upperBound - 11)
        #expect(error.message.contains("contentType attribute is not data"))
    }
}
