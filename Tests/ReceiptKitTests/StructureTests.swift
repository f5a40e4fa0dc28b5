import Foundation
import ReceiptKit
import Testing

@Suite("Every element fits inside the element that contains it")
struct StructureTests {
    @Test(
        "a NULL whose length runs past its SEQUENCE is refused at its offset, in DER and BER",
        arguments: [ASN1EncodingRules.der, .ber])
    func nullPastItsSequence(rules: ASN1EncodingRules) throws {
        // SEQUENCE { SEQUENCE { NULL, length 5 } } followed by five more bytes inside the outer SEQUENCE.
        let bytes: [UInt8] = [0x30, 0x09, 0x30, 0x02, 0x05, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00]
        let error = try #require(throws: ReceiptError.self) { try ASN1Node(parsing: bytes, rules: rules) }
        #expect(error.code == .lengthExceedsParent)
        #expect(error.code.rawValue == 10)
        #expect(error.offset == 4)
        #expect(error.message.contains("runs past the element that contains it"))
    }

    @Test("a length past the end of the input is still truncation")
    func pastTheInput() throws {
        let error = try #require(throws: ReceiptError.self) { try ASN1Node(parsing: [0x30, 0x03, 0x05, 0x05, 0x00]) }
        #expect(error.code == .truncated)
        #expect(error.offset == 2)
    }

    @Test("a NULL with contents is refused")
    func nullWithContents() throws {
        let error = try #require(throws: ReceiptError.self) {
            try ASN1Node(parsing: [0x30, 0x04, 0x05, 0x02, 0x00, 0x00])
        }
        #expect(error.code == .invalidLength)
        #expect(error.offset == 2)
        #expect(try ASN1Node(parsing: [0x30, 0x02, 0x05, 0x00]).children.first?.tag == .null)
    }

    /// The AlgorithmIdentifier of SHA-256 with its NULL parameters, as receipts carry it.
    static let sha256Identifier: [UInt8] = [
        0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00,
    ]

    @Test("in a receipt, an AlgorithmIdentifier's NULL running past it is refused, not ignored")
    func receiptAlgorithmParameters() throws {
        let signed = try ReceiptSigner().sign(Issuing.receipt(purchases: 1))
        let verifier = try Issuing.verifier()
        _ = try verifier.verify(signed)
        var starts: [Int] = []
        var from = signed.startIndex
        while let range = signed[from...].firstRange(of: Self.sha256Identifier) {
            starts.append(range.lowerBound)
            from = range.upperBound
        }
        // digestAlgorithms in SignedData, and the signer's digestAlgorithm.
        #expect(starts.count == 2)
        for start in starts {
            var tampered = signed
            let null = start + Self.sha256Identifier.count - 2
            tampered[null + 1] = 0x02  // the NULL now claims two bytes past the end of its AlgorithmIdentifier
            let error = try #require(throws: ReceiptError.self) { try verifier.verify(tampered) }
            #expect(error.code == .lengthExceedsParent, "identifier at \(start): \(error)")
            #expect(error.offset == null, "identifier at \(start)")
        }
    }
}
