public import Foundation

/// A JWS whose signature, chain and requested checks passed.
public struct VerifiedJWS: Sendable {
    /// The JWS, decoded.
    public let jws: CompactJWS
    /// The instant at which the chain was found valid.
    public let verificationDate: Date
    /// Whether it was signed Xcode-style, by a self-signed trusted certificate.
    public let isXcodeSigned: Bool
    /// The verified chain: the signing certificate first, the trusted root last.
    public let certificateChain: [X509Certificate]

    /// The payload, JSON text with Apple's keys.
    public var payloadJSON: [UInt8] {
        jws.payloadJSON
    }

    /// The payload's bundle identifier, wherever its kind keeps it.
    public var bundleIdentifier: String? {
        jws.fields.bundleIdentifier
    }

    /// The payload's environment (`environment`, or an app transaction's `receiptType`).
    public var environment: JWSEnvironment? {
        jws.fields.environment.map(JWSEnvironment.init(rawValue:))
    }

    /// The payload's `signedDate`, truncated to whole milliseconds.
    public var signedDate: Date? {
        jws.fields.signedDate.map { JWSDate(millisecondsSince1970: JWSDate.clamped($0.rounded(.towardZero))).date }
    }

    /// Decodes the payload as a model: ``JWSTransaction``, ``JWSRenewalInfo``, ``JWSAppTransaction`` or any
    /// `Decodable` with Apple's keys.
    ///
    /// - Parameter type: The model type.
    /// - Returns: The decoded payload.
    /// - Throws: ``ReceiptError/Code/invalidJWS`` naming the field that does not fit.
    public func decode<Payload: Decodable>(_ type: Payload.Type) throws(ReceiptError) -> Payload {
        do {
            return try JSONDecoder().decode(type, from: Data(jws.payloadJSON))
        } catch {
            throw ReceiptError(.invalidJWS, "the payload does not decode as \(type): \(error)")
        }
    }
}
