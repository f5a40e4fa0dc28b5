import Foundation
import ReceiptKit
import Testing

/// The envelope around the payload: versions, algorithm identifiers and their parameters. None of it is covered by the
/// signature, so each field is checked for the one value a receipt has, and any other is refused.
@Suite("Every byte of the receipt envelope is checked")
struct EnvelopeTests {
    /// The AlgorithmIdentifier of SHA-256 with its NULL parameters, as receipts carry it.
    static let sha256Identifier: [UInt8] = [
        0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00,
    ]
    /// The AlgorithmIdentifier of rsaEncryption with its NULL parameters.
    static let rsaIdentifier: [UInt8] = [
        0x30, 0x0D, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01, 0x05, 0x00,
    ]

    /// A receipt signed with the test PKI, and where its envelope fields lie.
    struct Envelope {
        var signed: [UInt8]
        /// The SignedData version's content byte.
        var signedDataVersion: Int
        /// The digestAlgorithms set's one identifier.
        var listedDigest: Int
        /// The SignerInfo version's content byte.
        var signerVersion: Int
        /// The SignerInfo's digest identifier.
        var signerDigest: Int
        /// The SignerInfo's signature algorithm identifier.
        var signatureAlgorithm: Int
    }

    static func envelope() throws -> Envelope {
        let signed = try ReceiptSigner().sign(Issuing.receipt(purchases: 2))
        _ = try Issuing.verifier().verify(signed)
        // ContentInfo (4 bytes), signedData OID (11), [0] (4), SignedData (4), then the version INTEGER.
        let signedDataVersion = 4 + 11 + 4 + 4 + 2
        #expect(signed[(signedDataVersion - 2)...(signedDataVersion + 1)] == [0x02, 0x01, 0x01, 0x31])
        var digests: [Int] = []
        var from = signed.startIndex
        while let range = signed[from...].firstRange(of: Self.sha256Identifier) {
            digests.append(range.lowerBound)
            from = range.upperBound
        }
        try #require(digests.count == 2)
        let root = try #require(ReceiptSigningIdentity.openStoreKitTest.certificates.last?.derEncoded)
        let rootEnd = try #require(signed.firstRange(of: root)).upperBound
        // signerInfos SET (4 bytes), SignerInfo SEQUENCE (4), then the version INTEGER.
        let signerVersion = rootEnd + 4 + 4 + 2
        #expect(signed[(signerVersion - 2)...(signerVersion + 1)] == [0x02, 0x01, 0x01, 0x30])
        let signature = try #require(signed[rootEnd...].firstRange(of: Self.rsaIdentifier)).lowerBound
        return Envelope(
            signed: signed, signedDataVersion: signedDataVersion, listedDigest: digests[0],
            signerVersion: signerVersion, signerDigest: digests[1], signatureAlgorithm: signature)
    }

    static func refusal(_ bytes: [UInt8]) throws -> ReceiptError {
        let verifier = try Issuing.verifier()
        do {
            _ = try verifier.verify(bytes)
        } catch {
            return error
        }
        Issue.record("the changed receipt verified")
        return ReceiptError(.openSSLFailure)
    }

    @Test("the SignedData and SignerInfo versions are 1: any other is refused", arguments: [0, 2, 3, 5])
    func versions(version: UInt8) throws {
        let envelope = try Self.envelope()
        for (position, name) in [(envelope.signedDataVersion, "SignedData"), (envelope.signerVersion, "SignerInfo")] {
            var changed = envelope.signed
            changed[position] = version
            let error = try Self.refusal(changed)
            #expect(error.code == .invalidSignedData, "\(name) version \(version): \(error)")
            #expect(error.detail == "the \(name) version is \(version); a receipt's is 1", "\(error.detail)")
            #expect(error.offset == position - 2)
        }
    }

    @Test(
        "the digestAlgorithms set names exactly the signer's digest: another one, or an unknown OID, is refused",
        arguments: [
            (0x02, ReceiptError.Code.invalidSignedData), (0x03, .invalidSignedData), (0x7F, .unsupportedAlgorithm),
        ]
            as [(UInt8, ReceiptError.Code)])
    func digestAlgorithmsSet(last: UInt8, code: ReceiptError.Code) throws {
        let envelope = try Self.envelope()
        var changed = envelope.signed
        changed[envelope.listedDigest + 12] = last  // the OID's last byte: SHA-384, SHA-512, or no algorithm
        let error = try Self.refusal(changed)
        #expect(error.code == code, "\(error)")
        if code == .invalidSignedData {
            #expect(error.detail.contains("a receipt's lists exactly its signer's digest algorithm, SHA256"))
            #expect(error.offset == envelope.listedDigest)
        }
    }

    @Test("an algorithm's NULL parameters replaced by another element are refused, wherever the identifier is")
    func parameters() throws {
        let envelope = try Self.envelope()
        let identifiers = [envelope.listedDigest, envelope.signerDigest, envelope.signatureAlgorithm]
        for identifier in identifiers {
            for tag: UInt8 in [0x04, 0x30, 0x31, 0x06] {
                var changed = envelope.signed
                changed[identifier + 13] = tag  // NULL (05 00) becomes an empty OCTET STRING, SEQUENCE, SET or OID
                let error = try Self.refusal(changed)
                #expect(
                    [ReceiptError.Code.invalidSignedData, .invalidLength].contains(error.code),
                    "identifier at \(identifier), tag \(tag): \(error)")
                if tag != 0x06 { #expect(error.detail.contains("not NULL; they must be NULL or absent")) }
            }
        }
    }

    @Test("a signature algorithm naming another digest than the signer's is refused")
    func signatureDigest() throws {
        let envelope = try Self.envelope()
        for (last, name) in [(0x05, "SHA1"), (0x0C, "SHA384"), (0x0D, "SHA512")] as [(UInt8, String)] {
            var changed = envelope.signed
            changed[envelope.signatureAlgorithm + 12] = last  // rsaEncryption becomes shaNNNWithRSAEncryption
            let error = try Self.refusal(changed)
            #expect(error.code == .invalidSignedData, "\(error)")
            #expect(
                error.detail == "the signature algorithm names \(name), but the signer's digest algorithm is SHA256")
        }
        var matching = envelope.signed
        matching[envelope.signatureAlgorithm + 12] = 0x0B  // sha256WithRSAEncryption agrees with the digest
        _ = try Issuing.verifier().verify(matching)
    }
}
