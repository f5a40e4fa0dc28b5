import Foundation
import ReceiptKit
import Testing

@Suite("Error codes are stable and documented")
struct ErrorCodeTests {
    /// The published numbers. Changing one breaks callers: add new codes, never renumber.
    static let published: [(ReceiptError.Code, Int)] = [
        (.truncated, 1), (.trailingBytes, 2), (.nestingTooDeep, 3), (.invalidLength, 4), (.invalidTag, 5),
        (.unexpectedElement, 6), (.invalidInteger, 7), (.invalidString, 8), (.invalidDate, 9),
        (.lengthExceedsParent, 10), (.notPKCS7, 100),
        (.unsupportedContentType, 101), (.missingPayload, 102), (.invalidSignedData, 103), (.missingAttribute, 110),
        (.duplicateAttribute, 111), (.signerNotFound, 200), (.signatureInvalid, 201), (.unsupportedAlgorithm, 202),
        (.certificateMalformed, 203), (.chainNotTrusted, 300), (.certificateExpired, 301),
        (.certificateNotYetValid, 302), (.certificateSignatureInvalid, 303), (.certificatePurposeInvalid, 304),
        (.chainInvalid, 305), (.missingReceiptSigningMarker, 306), (.missingIntermediateMarker, 307),
        (.unexpectedChainLength, 308), (.xcodeReceiptNotAllowed, 309), (.extraneousCertificate, 310),
        (.bundleIdentifierMismatch, 400), (.applicationVersionMismatch, 401), (.deviceHashMismatch, 402),
        (.invalidDeviceIdentifier, 403), (.environmentMismatch, 404), (.fileUnreadable, 500), (.invalidEncoding, 501),
        (.certificateUnreadable, 502), (.privateKeyUnreadable, 503), (.invalidSigningIdentity, 504),
        (.publicKeyUnreadable, 505),
        (.invalidJWS, 600), (.missingCertificateChain, 601), (.xcodeJWSNotAllowed, 602), (.missingClaim, 603),
        (.requestExpired, 604),
        (.openSSLFailure, 900),
    ]

    @Test("every code keeps its number, and the numbers are distinct")
    func stable() {
        for (code, number) in Self.published { #expect(code.rawValue == number, "\(code)") }
        #expect(ReceiptError.Code.allCodes.map(\.rawValue) == Self.published.map(\.1).sorted())
        #expect(Set(ReceiptError.Code.allCodes.map(\.name)).count == Self.published.count)
    }

    @Test("errors compare by code only")
    func equality() {
        #expect(ReceiptError(.signatureInvalid, "a", offset: 1) == ReceiptError(.signatureInvalid, "b"))
        #expect(ReceiptError(.signatureInvalid) != ReceiptError(.certificateExpired))
        #expect(ReceiptError(.signatureInvalid).description.contains("signatureInvalid (201)"))
    }

    @Test("docs/receipts.md lists every code with its number")
    func documented() throws {
        let docs = try String(contentsOfFile: Fixtures.repositoryRoot + "/docs/receipts.md", encoding: .utf8)
        for code in ReceiptError.Code.allCodes {
            #expect(docs.contains("| \(code.rawValue) | `\(code.name)` |"), "docs table row for \(code)")
        }
    }
}
