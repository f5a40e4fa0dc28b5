import Foundation
import ReceiptKit
import Testing

@Suite("Tampering with any byte is rejected")
struct TamperTests {
    /// A receipt and where its regions lie.
    struct Layout {
        var signed: [UInt8]
        var payload: Range<Int>
        var signature: Range<Int>
        var certificates: [Range<Int>]
    }

    static func layout() throws -> Layout {
        let payload = Issuing.receipt().derEncoded()
        let signed = try ReceiptSigner().sign(payload: payload)
        let payloadRange = try #require(signed.firstRange(of: payload))
        let certificates = try ReceiptSigningIdentity.openStoreKitTest.certificates.map {
            try #require(signed.firstRange(of: $0.derEncoded))
        }
        return Layout(
            signed: signed, payload: payloadRange, signature: (signed.count - 256)..<signed.count,
            certificates: certificates)
    }

    /// About `count` positions spread evenly over a region, always including its first and last bytes.
    static func positions(in range: Range<Int>, count: Int = 48) -> [Int] {
        let step = max(1, range.count / count)
        return Array(
            Set(Array(stride(from: range.lowerBound, to: range.upperBound, by: step)) + [range.upperBound - 1])
        )
        .sorted()
    }

    static func tampered(_ bytes: [UInt8], at position: Int, mask: UInt8 = 0x01) -> [UInt8] {
        var copy = bytes
        copy[position] ^= mask
        return copy
    }

    @Test("payload bytes: signature invalid, even with the signer's chain cached", arguments: [0x01, 0x80] as [UInt8])
    func payload(mask: UInt8) throws {
        let layout = try Self.layout()
        let verifier = try Issuing.verifier()
        _ = try verifier.verify(layout.signed)  // warm the chain cache
        #expect(verifier.cachedChainCount == 1)
        for position in Self.positions(in: layout.payload) {
            let error = try #require(throws: ReceiptError.self) {
                try verifier.verify(Self.tampered(layout.signed, at: position, mask: mask))
            }
            #expect(error.code == .signatureInvalid, "payload byte \(position): \(error)")
        }
    }

    @Test("signature bytes: signature invalid", arguments: [0x01, 0x80] as [UInt8])
    func signature(mask: UInt8) throws {
        let layout = try Self.layout()
        let verifier = try Issuing.verifier()
        for position in Self.positions(in: layout.signature) {
            let error = try #require(throws: ReceiptError.self) {
                try verifier.verify(Self.tampered(layout.signed, at: position, mask: mask))
            }
            #expect(error.code == .signatureInvalid, "signature byte \(position): \(error)")
        }
    }

    /// The codes a tampered certificate may produce, depending on which of its fields the byte belongs to.
    static let certificateCodes: Set<ReceiptError.Code> = [
        .certificateMalformed, .signerNotFound, .signatureInvalid, .certificateSignatureInvalid, .chainNotTrusted,
        .extraneousCertificate, .certificatePurposeInvalid, .chainInvalid, .missingReceiptSigningMarker,
        .missingIntermediateMarker, .certificateExpired, .certificateNotYetValid, .unexpectedElement, .truncated,
        .invalidLength, .invalidTag, .trailingBytes,
    ]

    @Test("certificate bytes (leaf, intermediate, root): rejected with a certificate or structure code")
    func certificates() throws {
        let layout = try Self.layout()
        let verifier = try Issuing.verifier()
        _ = try verifier.verify(layout.signed)
        var seen: [ReceiptError.Code: Int] = [:]
        for (index, range) in layout.certificates.enumerated() {
            for position in Self.positions(in: range) {
                let error = try #require(throws: ReceiptError.self) {
                    try verifier.verify(Self.tampered(layout.signed, at: position))
                }
                #expect(Self.certificateCodes.contains(error.code), "certificate #\(index) byte \(position): \(error)")
                seen[error.code, default: 0] += 1
            }
        }
        // The sample reaches the distinct failure paths, not one catch-all.
        #expect(seen.keys.count >= 3, "codes seen: \(seen)")
    }

    @Test("precise certificate tampering gives precise codes")
    func preciseCertificateCodes() throws {
        let layout = try Self.layout()
        let verifier = try Issuing.verifier()
        let leaf = layout.certificates[0]
        let root = layout.certificates[2]
        // The last byte of a certificate is in its signature value.
        #expect(throws: ReceiptError(.certificateSignatureInvalid)) {
            try verifier.verify(Self.tampered(layout.signed, at: leaf.upperBound - 1))
        }
        // The embedded copy of the root is not the trusted root any more, so it is not part of the chain.
        #expect(throws: ReceiptError(.extraneousCertificate)) {
            try verifier.verify(Self.tampered(layout.signed, at: root.upperBound - 1))
        }
        // A byte of the leaf's RSA modulus: the payload signature no longer verifies with the changed key.
        let leafBytes = Array(layout.signed[leaf])
        let modulusMarker: [UInt8] = [0x02, 0x82, 0x01, 0x01, 0x00]
        let modulus = try #require(leafBytes.firstRange(of: modulusMarker))
        #expect(throws: ReceiptError(.signatureInvalid)) {
            try verifier.verify(Self.tampered(layout.signed, at: leaf.lowerBound + modulus.upperBound + 40))
        }
    }
}
