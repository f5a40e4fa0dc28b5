import Foundation
import ReceiptKit
import TestSupport
import Testing

@Suite("JWS: tampering, bad chains and garbage are refused with their codes")
struct JWSTamperTests {
    static let verifier: JWSVerifier = {
        do {
            return try JWSVerifier(trustedRoots: [.openStoreKitJWSTestRoot])
        } catch {
            fatalError("\(error)")
        }
    }()

    static let options = JWSVerificationOptions(bundleIdentifier: "com.example.app", environment: .sandbox)

    static func signed() throws -> String {
        try JWSSigner().sign(JWSFixtures.transaction())
    }

    @Test("a changed header is refused: signatureInvalid; another alg: unsupportedAlgorithm")
    func header() throws {
        let jws = try CompactJWS(Self.signed())
        var header = try #require(try JSONSerialization.jsonObject(with: Data(jws.headerJSON)) as? [String: Any])
        header["typ"] = "JWT"
        let extra = try JWSTamper.reassemble(jws, header: header)
        JWSFixtures.expectCode(.signatureInvalid) { _ = try Self.verifier.verify(extra, options: Self.options) }
        for algorithm in ["RS256", "none", "ES384", "es256"] {
            header["alg"] = algorithm
            let text = try JWSTamper.reassemble(jws, header: header)
            JWSFixtures.expectCode(.unsupportedAlgorithm, "\(algorithm)") { _ = try Self.verifier.verify(text) }
        }
        header["alg"] = nil
        let noAlg = try JWSTamper.reassemble(jws, header: header)
        JWSFixtures.expectCode(.unsupportedAlgorithm) { _ = try Self.verifier.verify(noAlg) }
        for x5c: Any in ["abc", [1, 2, 3], ["a", 2, "c"]] {
            header["alg"] = "ES256"
            header["x5c"] = x5c
            let text = try JWSTamper.reassemble(jws, header: header)
            JWSFixtures.expectCode(.missingCertificateChain, "\(x5c)") { _ = try Self.verifier.verify(text) }
        }
        header["x5c"] = [String]()
        let empty = try JWSTamper.reassemble(jws, header: header)
        JWSFixtures.expectCode(.unexpectedChainLength) { _ = try Self.verifier.verify(empty) }
    }

    @Test("a changed payload is refused: signatureInvalid")
    func payload() throws {
        let jws = try CompactJWS(Self.signed())
        let text = String(decoding: jws.payloadJSON, as: UTF8.self).replacingOccurrences(
            of: "com.example.app", with: "com.example.evil")
        let tampered = try JWSTamper.reassemble(jws, payload: Array(text.utf8))
        JWSFixtures.expectCode(.signatureInvalid) { _ = try Self.verifier.verify(tampered) }
    }

    @Test("a changed signature is refused: signatureInvalid; one of the wrong size: invalidJWS")
    func signature() throws {
        let jws = try CompactJWS(Self.signed())
        for index in [0, 1, 31, 32, 33, 63] {
            var signature = jws.signature
            signature[index] ^= 0x01
            let text = try JWSTamper.reassemble(jws, signature: signature)
            JWSFixtures.expectCode(.signatureInvalid, "byte \(index)") { _ = try Self.verifier.verify(text) }
        }
        for signature in [[UInt8](repeating: 0, count: 64), [UInt8](repeating: 0xFF, count: 64)] {
            let text = try JWSTamper.reassemble(jws, signature: signature)
            JWSFixtures.expectCode(.signatureInvalid) { _ = try Self.verifier.verify(text) }
        }
        for count in [1, 63, 65, 72] {
            let text = try JWSTamper.reassemble(jws, signature: [UInt8](repeating: 7, count: count))
            JWSFixtures.expectCode(.invalidJWS, "\(count) bytes") { _ = try Self.verifier.verify(text) }
        }
    }

    @Test("another certificate as x5c[0] is refused: signatureInvalid")
    func otherLeaf() throws {
        let jws = try CompactJWS(Self.signed())
        var chain = try #require(jws.certificateChain)
        chain[0] = Data(try JWSFixtures.pkiCertificate("leaf-unmarked").derEncoded).base64EncodedString()
        let text = try JWSTamper.reassemble(jws, header: ["alg": "ES256", "x5c": chain])
        JWSFixtures.expectCode(.signatureInvalid) { _ = try Self.verifier.verify(text) }
    }

    @Test(
        "chains: wrong root, expired, not yet valid, missing markers, wrong intermediate",
        arguments: [
            ("leaf", "intermediate", "other-root", nil, ReceiptError.Code.chainNotTrusted),
            ("leaf-expired", "intermediate", "root", nil, .certificateExpired),
            ("leaf", "intermediate", "root", 1_500_000_000, .certificateNotYetValid),
            ("leaf", "intermediate", "root", 2_900_000_000, .certificateExpired),
            ("leaf-unmarked", "intermediate", "root", nil, .missingReceiptSigningMarker),
            ("leaf-under-unmarked", "intermediate-unmarked", "root", nil, .missingIntermediateMarker),
            ("leaf", "intermediate-unmarked", "root", nil, .chainNotTrusted),
        ] as [(String, String, String, Int?, ReceiptError.Code)])
    func chains(leaf: String, intermediate: String, root: String, at seconds: Int?, code: ReceiptError.Code) throws {
        let jws = try JWSSigner(identity: JWSFixtures.identity(leaf: leaf, intermediate: intermediate)).sign(
            JWSFixtures.transaction())
        let verifier = try JWSVerifier(trustedRoots: [JWSFixtures.pkiCertificate(root)])
        var options = Self.options
        if let seconds { options.time = .date(Date(timeIntervalSince1970: Double(seconds))) }
        JWSFixtures.expectCode(code) { _ = try verifier.verify(jws, options: options) }
    }

    @Test("a trusted intermediate is no root: no partial chains (chainNotTrusted)")
    func intermediateAsRoot() throws {
        let verifier = try JWSVerifier(trustedRoots: [JWSFixtures.pkiCertificate("intermediate")])
        JWSFixtures.expectCode(.chainNotTrusted) { _ = try verifier.verify(try Self.signed()) }
    }

    @Test("wrong bundle: bundleIdentifierMismatch; wrong or missing environment: environmentMismatch")
    func applicationChecks() throws {
        let jws = try Self.signed()
        JWSFixtures.expectCode(.bundleIdentifierMismatch) {
            _ = try Self.verifier.verify(jws, options: JWSVerificationOptions(bundleIdentifier: "com.example.other"))
        }
        for environment in [JWSEnvironment.production, .xcode, .localTesting] {
            JWSFixtures.expectCode(.environmentMismatch, "\(environment)") {
                _ = try Self.verifier.verify(jws, options: JWSVerificationOptions(environment: environment))
            }
        }
        let none = try JWSSigner().sign(payloadJSON: Array(#"{"bundleId":"com.example.app"}"#.utf8))
        JWSFixtures.expectCode(.environmentMismatch) {
            _ = try Self.verifier.verify(none, options: JWSVerificationOptions(environment: .sandbox))
        }
    }

    @Test("a signedDate of another JSON type is refused naming it; null is absent: the time falls back to now")
    func signedDateTypes() throws {
        // leaf-expired is valid in 2020 only: read as 1970 (true as 1 ms) it would be "not yet valid".
        let signer = try JWSSigner(identity: JWSFixtures.identity(leaf: "leaf-expired"))
        for value in ["true", "\"1600000000000\"", "[1]", "{}"] {
            let jws = try signer.sign(payloadJSON: Array(#"{"signedDate":\#(value)}"#.utf8))
            do {
                let verified = try Self.verifier.verify(jws)
                Issue.record("signedDate \(value) verified at \(verified.verificationDate)")
            } catch {
                #expect(error.code == .invalidJWS, "signedDate \(value): \(error)")
                #expect(error.detail.hasPrefix("the payload's signedDate is "), "\(error.detail)")
                #expect(error.detail.hasSuffix("not a number of milliseconds since 1970"), "\(error.detail)")
            }
        }
        let absent = try signer.sign(payloadJSON: Array(#"{"signedDate":null}"#.utf8))
        JWSFixtures.expectCode(.certificateExpired, "signedDate null") { _ = try Self.verifier.verify(absent) }
        let inTime = try signer.sign(payloadJSON: Array(#"{"signedDate":1600000000000.75}"#.utf8))
        #expect(try Self.verifier.verify(inTime).verificationDate == Date(timeIntervalSince1970: 1_600_000_000))
    }

    @Test(
        "every field verification reads is refused when its JSON type is wrong, naming the field",
        arguments: [
            (#"{"signedDate":1600000000000,"receiptCreationDate":"now"}"#, "receiptCreationDate"),
            (#"{"signedDate":1e300}"#, "signedDate"),
            (#"{"signedDate":-1e17}"#, "signedDate"),
            (#"{"bundleId":7,"environment":"Sandbox"}"#, "bundleId"),
            (#"{"bundleId":"com.example.app","environment":["Sandbox"]}"#, "environment"),
            (#"{"bundleId":"com.example.app","receiptType":false}"#, "receiptType"),
            (#"{"data":"com.example.app"}"#, "data"),
            (#"{"data":{"bundleId":{"id":"com.example.app"},"environment":"Sandbox"}}"#, "data.bundleId"),
            (#"{"summary":{"bundleId":"com.example.app","environment":1}}"#, "summary.environment"),
            (#"{"appData":[]}"#, "appData"),
            (
                #"{"externalPurchaseToken":{"bundleId":"com.example.app","externalPurchaseId":2}}"#,
                "externalPurchaseToken.externalPurchaseId"
            ),
        ])
    func fieldTypes(payload: String, field: String) throws {
        let jws = try JWSSigner().sign(payloadJSON: Array(payload.utf8))
        do {
            _ = try Self.verifier.verify(jws, options: JWSVerificationOptions(strictChecks: true))
            Issue.record("verified: \(payload)")
        } catch {
            #expect(error.code == .invalidJWS, "\(payload): \(error)")
            #expect(error.detail.hasPrefix("the payload's \(field) is "), "\(error.detail)")
        }
    }

    @Test("a payload or header that names a key twice is refused: invalidJWS naming the key")
    func duplicateKeys() throws {
        let payloads = [
            (#"{"bundleId":"com.example.app","bundleId":"com.example.other"}"#, "\"bundleId\""),
            (#"{"bundleId":"com.example.app","offer":{"id":"a","id":"b"}}"#, "\"id\""),
        ]
        for (payload, key) in payloads {
            let jws = try JWSSigner().sign(payloadJSON: Array(payload.utf8))
            do {
                _ = try Self.verifier.verify(jws)
                Issue.record("a payload with a repeated key verified: \(payload)")
            } catch {
                #expect(error.code == .invalidJWS, "\(error)")
                #expect(error.detail.contains("payload names the key \(key) twice"), "\(error.detail)")
            }
        }
        let jws = try CompactJWS(Self.signed())
        let header = try #require(String(bytes: jws.headerJSON, encoding: .utf8))
        let doubled = String(header.dropLast()) + #","alg":"none"}"#
        let text = try JWSTamper.reassemble(jws, headerJSON: Array(doubled.utf8))
        do {
            _ = try CompactJWS(text)
            Issue.record("a header with a repeated key was read: \(doubled)")
        } catch {
            #expect(error.code == .invalidJWS)
            #expect(error.detail.contains(#"header names the key "alg" twice"#), "\(error.detail)")
        }
    }

    @Test("every truncation of a JWS is refused, never accepted, never a crash")
    func truncated() throws {
        let jws = Array(try Self.signed().utf8)
        for length in Set(stride(from: 0, to: jws.count, by: 7)).union([jws.count - 1, jws.count - 2]) {
            #expect(throws: ReceiptError.self, "length \(length)") {
                _ = try Self.verifier.verify(bytes: Array(jws.prefix(length)))
            }
        }
    }

    @Test("a changed character anywhere in the text is refused")
    func everyPosition() throws {
        let jws = Array(try Self.signed().utf8)
        for position in stride(from: 0, to: jws.count, by: 5) {
            var copy = jws
            copy[position] ^= 0x01
            #expect(throws: ReceiptError.self, "position \(position)") {
                _ = try Self.verifier.verify(bytes: copy, options: Self.options)
            }
        }
    }

    @Test("garbage, non-base64, bad JSON, deep nesting and huge inputs are refused: invalidJWS")
    func garbage() throws {
        var generator = SystemRandomNumberGenerator()
        var inputs: [[UInt8]] = [
            [], Array("   \n".utf8), Array("not a jws".utf8), Array("a.b.c".utf8), Array("!!!.###.$$$".utf8),
            Array((JWSTamper.base64URL(Array("{".utf8)) + ".e30.AA").utf8),
            Array((JWSTamper.base64URL(Array("[]".utf8)) + ".e30." + JWSTamper.base64URL([1])).utf8),
            Array("e30.e30.e30".utf8), Array("eyJ9.eyJ9.eyJ9".utf8), Array("e30=.e30.e30".utf8),
            [UInt8](repeating: UInt8(ascii: "A"), count: CompactJWS.maximumLength + 1),
            [UInt8](repeating: UInt8(ascii: "."), count: 10_000), [0xFF, 0xFE, 0x00, 0x2E, 0x2E],
        ]
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let deepHeader = JWSTamper.base64URL(Array(#"{"alg":"ES256","x":"#.utf8) + Array(deep.utf8) + [0x7D])
        inputs.append(Array((deepHeader + ".e30." + JWSTamper.base64URL([UInt8](repeating: 1, count: 64))).utf8))
        for _ in 0..<200 {
            let count = Int.random(in: 0..<600, using: &generator)
            inputs.append((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }
        for input in inputs {
            JWSFixtures.expectCode(.invalidJWS, "\(input.prefix(24))") { _ = try Self.verifier.verify(bytes: input) }
        }
    }

    @Test("the warm path: a second verification reuses the chain and still checks signature, time and claims")
    func warmPath() throws {
        let verifier = try JWSVerifier(trustedRoots: [.openStoreKitJWSTestRoot])
        let jws = try Self.signed()
        _ = try verifier.verify(jws, options: Self.options)
        #expect(verifier.cachedChainCount == 1)
        _ = try verifier.verify(try Self.signed(), options: Self.options)
        #expect(verifier.cachedChainCount == 1)
        let decoded = try CompactJWS(jws)
        var signature = decoded.signature
        signature[10] ^= 0x40
        let badSignature = try JWSTamper.reassemble(decoded, signature: signature)
        JWSFixtures.expectCode(.signatureInvalid) { _ = try verifier.verify(badSignature, options: Self.options) }
        var late = Self.options
        late.time = .date(Date(timeIntervalSince1970: 2_900_000_000))
        JWSFixtures.expectCode(.certificateExpired) { _ = try verifier.verify(jws, options: late) }
        JWSFixtures.expectCode(.bundleIdentifierMismatch) {
            _ = try verifier.verify(jws, options: JWSVerificationOptions(bundleIdentifier: "com.example.other"))
        }
    }

    @Test("A chain cached without strict checks is checked again under them", .requiresSharedData)
    func cachedChainRecheckedStrictly() throws {
        let apple = try JWSVerifier(trustedRoots: [JWSFixtures.appleTestRoot()])
        let mock = try JWSFixtures.jws("asslp_mock_transactionInfo.jws")
        _ = try apple.verify(mock, options: JWSVerificationOptions(strictChecks: false))
        #expect(throws: ReceiptError.self) { _ = try apple.verify(mock) }
    }

    @Test("one verifier serves many threads at once")
    func concurrent() async throws {
        let verifier = try JWSVerifier(trustedRoots: [.openStoreKitJWSTestRoot])
        let jws = try Self.signed()
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<32 {
                group.addTask { (try? verifier.verify(jws, options: Self.options)) != nil }
            }
            var all: [Bool] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 32 && results.allSatisfy { $0 })
    }
}
