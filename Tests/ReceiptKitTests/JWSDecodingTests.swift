import Foundation
import ReceiptKit
import Testing

/// The decoding under CompactJWS: base64url segments and the JSON of header and payload, strict where JWS is.
@Suite("JWS: segment and JSON decoding")
struct JWSDecodingTests {
    static let signature = JWSTamper.base64URL([UInt8](repeating: 1, count: 64))

    /// A JWS text with this header and payload JSON (not signed: only decoding is under test).
    static func text(header: String = #"{"alg":"ES256"}"#, payload: String) -> String {
        JWSTamper.base64URL(Array(header.utf8)) + "." + JWSTamper.base64URL(Array(payload.utf8)) + "." + signature
    }

    @Test("JSON that Foundation accepts is accepted, with the values verification reads")
    func validJSON() throws {
        let payloads = [
            #"{"bundleId":"com.example","environment":"Sandbox","signedDate":1672956154000}"#,
            #" { "bundleId" : "com.ex\u0061mple" , "environment" : "Sand\/box\\" , "signedDate" : 1.672956154E12 } "#,
            #"{"data":{"bundleId":"com.example","environment":"Sandbox"},"signedDate":-0.5e-3,"x":[true,false,null,[],{}]}"#,
            #"{"bundleId":"caf\u00e9 \ud83d\ude00","environment":"\"\b\f\n\r\t"}"#,
        ]
        let verifier = try JWSVerifier(trustedRoots: [.openStoreKitJWSTestRoot])
        let at = JWSVerificationOptions(time: .date(Date(timeIntervalSince1970: 1_736_935_200)))
        for payload in payloads {
            let foundation = try #require(
                try JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any])
            let data = foundation["data"] as? [String: Any]
            let verified = try verifier.verify(JWSSigner().sign(payloadJSON: Array(payload.utf8)), options: at)
            #expect(verified.payloadJSON == Array(payload.utf8))
            #expect(verified.bundleIdentifier == (foundation["bundleId"] ?? data?["bundleId"]) as? String)
            #expect(verified.environment?.rawValue == (foundation["environment"] ?? data?["environment"]) as? String)
            let milliseconds = (foundation["signedDate"] as? NSNumber)?.doubleValue
            #expect(
                verified.signedDate
                    == milliseconds.map { Date(timeIntervalSince1970: ($0.rounded(.towardZero)) / 1000) })
        }
    }

    @Test("the decoded bundle and environment are Foundation's, escapes included")
    func decodedValues() throws {
        let payload = #"{"bundleId":"com.ex\u0061mple\/x","environment":"Sandbox","signedDate":1.5e3}"#
        let jws = try JWSSigner().sign(payloadJSON: Array(payload.utf8))
        let verified = try JWSVerifier(trustedRoots: [.openStoreKitJWSTestRoot]).verify(
            jws, options: JWSVerificationOptions(time: .date(Date(timeIntervalSince1970: 1_736_935_200))))
        #expect(verified.bundleIdentifier == "com.example/x")
        #expect(verified.environment == .sandbox)
        #expect(verified.signedDate == Date(timeIntervalSince1970: 1.5))
        let surrogate = try JWSSigner().sign(payloadJSON: Array(#"{"bundleId":"\ud83d\ude00"}"#.utf8))
        #expect(try JWSVerifier(trustedRoots: [.openStoreKitJWSTestRoot]).verify(surrogate).bundleIdentifier == "😀")
    }

    @Test("invalid JSON is refused: invalidJWS")
    func invalidJSON() throws {
        let payloads = [
            "", "{", "}", "[]", "\"s\"", "1", "null", #"{"a":}"#, #"{"a" 1}"#, #"{"a":1,}"#, #"{a:1}"#,
            #"{"a":01}"#, #"{"a":1.}"#, #"{"a":.5}"#, #"{"a":1e}"#, #"{"a":+1}"#, #"{"a":-}"#, #"{"a":tru}"#,
            #"{"a":"\x"}"#, #"{"a":"\u12"}"#, #"{"a":"\ud83d"}"#, #"{"a":"\ude00"}"#, "{\"a\":\"\u{01}\"}",
            #"{"a":1} x"#, #"{"a":[1,2}"#, #"{"a":1e999}"#, #"{"a":NaN}"#,
        ]
        for payload in payloads {
            JWSFixtures.expectCode(.invalidJWS, "\(payload)") { _ = try CompactJWS(Self.text(payload: payload)) }
        }
        // Invalid UTF-8 in a string.
        let bytes: [UInt8] = Array(#"{"a":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        let text =
            JWSTamper.base64URL(Array(#"{"alg":"ES256"}"#.utf8)) + "." + JWSTamper.base64URL(bytes) + "."
            + Self.signature
        JWSFixtures.expectCode(.invalidJWS) { _ = try CompactJWS(text) }
    }

    @Test("nesting is bounded at 32 levels")
    func nesting() throws {
        let ok = #"{"a":"# + String(repeating: "[", count: 31) + String(repeating: "]", count: 31) + "}"
        _ = try CompactJWS(Self.text(payload: ok))
        let deep = #"{"a":"# + String(repeating: "[", count: 32) + String(repeating: "]", count: 32) + "}"
        JWSFixtures.expectCode(.invalidJWS) { _ = try CompactJWS(Self.text(payload: deep)) }
    }

    @Test("segments are strict base64url: no padding, no standard alphabet, canonical last character")
    func base64URL() throws {
        let header = JWSTamper.base64URL(Array(#"{"alg":"ES256"}"#.utf8))
        let payload = JWSTamper.base64URL(Array(#"{"a":"??>"}"#.utf8))
        #expect(payload.contains("_") || payload.contains("-"))
        _ = try CompactJWS(header + "." + payload + "." + Self.signature)
        for bad in [header + "=", header.replacingOccurrences(of: "e", with: "+"), header + "A"] {
            JWSFixtures.expectCode(.invalidJWS, "\(bad)") { _ = try CompactJWS(bad + ".e30." + Self.signature) }
        }
        // "e30" is {} ; "e31" decodes to the same bytes with non-zero unused bits: not canonical.
        _ = try CompactJWS("e30.e30." + Self.signature)
        JWSFixtures.expectCode(.invalidJWS) { _ = try CompactJWS("e30.e31." + Self.signature) }
        // x5c entries are standard base64 with padding; base64url there is refused.
        var bytes = [UInt8](repeating: 0xFB, count: 30)
        bytes[0] = 0xFF
        let standard = Data(bytes).base64EncodedString()
        #expect(standard.contains("+") || standard.contains("/"))
        let urlForm = standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        let jws = try CompactJWS(
            JWSTamper.base64URL(Array(#"{"alg":"ES256","x5c":["\#(urlForm)","a","b"]}"#.utf8)) + ".e30."
                + Self.signature)
        JWSFixtures.expectCode(.certificateMalformed) {
            _ = try JWSVerifier(trustedRoots: []).verify(jws)
        }
    }
}
