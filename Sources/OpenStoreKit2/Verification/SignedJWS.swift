public import Foundation
import ReceiptKit

/// The compact JWS a StoreKit 2 value was decoded from, and its parts.
public struct SignedJWS: Hashable, Sendable {
    /// The compact JWS.
    public let jws: String
    /// The header's JSON bytes.
    public let headerData: Data
    /// The payload's JSON bytes.
    public let payloadData: Data
    /// The signature's bytes.
    public let signatureData: Data

    init(jws: String, header: Data, payload: Data, signature: Data) {
        self.jws = jws
        self.headerData = header
        self.payloadData = payload
        self.signatureData = signature
    }

    /// The parts of a compact JWS already split and decoded.
    init(jws: String, decoded: CompactJWS) {
        self.init(
            jws: jws, header: Data(decoded.headerJSON), payload: Data(decoded.payloadJSON),
            signature: Data(decoded.signature))
    }

    /// The bytes the signature covers: `header.payload` as ASCII.
    public var signedData: Data {
        let parts = jws.utf8.split(separator: UInt8(ascii: "."), maxSplits: 2, omittingEmptySubsequences: false)
        return Data(parts.prefix(2).joined(separator: [UInt8(ascii: ".")]))
    }
}
