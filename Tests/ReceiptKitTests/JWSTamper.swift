import Foundation
import ReceiptKit

/// Builds altered JWS for the tests: segments re-encoded from parts.
enum JWSTamper {
    /// base64url without padding.
    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The JWS with some of its parts replaced (the signature is kept unless given, so it no longer matches).
    static func reassemble(
        _ jws: CompactJWS, header: [String: Any]? = nil, headerJSON: [UInt8]? = nil, payload: [UInt8]? = nil,
        signature: [UInt8]? = nil
    ) throws -> String {
        var headerBytes = headerJSON ?? jws.headerJSON
        if let header {
            headerBytes = [UInt8](try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys]))
        }
        return base64URL(headerBytes) + "." + base64URL(payload ?? jws.payloadJSON) + "."
            + base64URL(signature ?? jws.signature)
    }
}

extension JWSTamper {
    /// A raw R||S signature as DER `ECDSA-Sig-Value`, encoded by hand for the tests (so the OpenSSL command line
    /// checks the conversion independently of ReceiptKit's).
    static func derSignature(_ raw: [UInt8]) -> [UInt8] {
        func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            var value = Array(bytes.drop { $0 == 0 })
            if value.isEmpty { value = [0] }
            if value[0] & 0x80 != 0 { value.insert(0, at: 0) }
            return [0x02, UInt8(value.count)] + value
        }
        let body = integer(raw[0..<32]) + integer(raw[32..<64])
        return [0x30, UInt8(body.count)] + body
    }
}
