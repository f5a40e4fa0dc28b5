import Foundation
import StoreModels

/// Signs payloads as StoreKit 2 compact JWS, the way the App Store signs transactions, renewal info and app
/// transactions.
///
/// The header is `{"alg":"ES256","x5c":[leaf, intermediate, root]}` (each certificate standard base64 DER; Xcode-shaped
/// identities add `"kid"`), the signature ES256: ECDSA P-256 over SHA-256 of `header.payload`, written as R‖S (64
/// bytes) in base64url. ECDSA uses a fresh random nonce, so one payload signs to different bytes each time; every
/// one of them verifies.
///
/// ```swift
/// let jws = try JWSSigner().sign(transaction)   // a JWSTransaction
/// ```
public struct JWSSigner: Sendable {
    /// The certificates and key that sign.
    public let identity: JWSSigningIdentity
    /// The encoded header segment, made once.
    private let headerSegment: [UInt8]

    /// Creates a signer.
    ///
    /// - Parameter identity: The signing identity; by default the test identity
    ///   ``JWSSigningIdentity/openStoreKitTest``.
    public init(identity: JWSSigningIdentity = .openStoreKitTest) {
        self.identity = identity
        var header = #"{"alg":"ES256""#
        if let kid = identity.keyIdentifier { header += #","kid":"# + Self.jsonString(kid) }
        header += #","x5c":["#
        header += identity.certificates.map { "\"" + Base64URL.encodeStandard($0.derEncoded) + "\"" }.joined(
            separator: ",")
        header += "]}"
        headerSegment = Array(Base64URL.encode(Array(header.utf8)).utf8)
    }

    /// Signs a payload given as JSON text.
    ///
    /// - Parameter payloadJSON: The payload, a JSON object (UTF-8), signed as given.
    /// - Returns: The compact JWS.
    /// - Throws: ``ReceiptError/Code/invalidJWS`` if the payload is not a JSON object, or
    ///   ``ReceiptError/Code/openSSLFailure`` if OpenSSL cannot sign.
    public func sign(payloadJSON: [UInt8]) throws(ReceiptError) -> String {
        guard JSONTree.isObject(payloadJSON, maximumDepth: CompactJWS.maximumDepth) else {
            throw ReceiptError(
                .invalidJWS,
                "a JWS payload must be a JSON object (nested at most \(CompactJWS.maximumDepth) levels)")
        }
        return try sign(validatedPayload: payloadJSON)
    }

    /// Encodes a payload model (``JWSTransaction``, ``JWSRenewalInfo``, ``JWSAppTransaction`` or any `Encodable`)
    /// as JSON with Apple's keys and signs it.
    ///
    /// - Parameter payload: The payload; it must encode as a JSON object.
    /// - Returns: The compact JWS.
    /// - Throws: ``ReceiptError/Code/invalidJWS`` if it does not encode as a JSON object, or
    ///   ``ReceiptError/Code/openSSLFailure`` if OpenSSL cannot sign.
    public func sign(_ payload: some Encodable) throws(ReceiptError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json: Data
        do {
            json = try encoder.encode(payload)
        } catch {
            throw ReceiptError(.invalidJWS, "the payload cannot be encoded as JSON: \(error)")
        }
        guard json.first == UInt8(ascii: "{") else {
            throw ReceiptError(.invalidJWS, "a JWS payload must be a JSON object")
        }
        return try sign(validatedPayload: [UInt8](json))
    }

    private func sign(validatedPayload payload: [UInt8]) throws(ReceiptError) -> String {
        var input = headerSegment
        input.reserveCapacity(headerSegment.count + payload.count * 4 / 3 + 92)
        input.append(UInt8(ascii: "."))
        Base64URL.append(payload, to: &input)
        let der = try ES256.sign(input, with: identity.privateKey)
        guard let raw = ECDSASignature.raw(fromDER: der) else {
            throw ReceiptError(.openSSLFailure, "OpenSSL returned an ECDSA signature that is not P-256")
        }
        input.append(UInt8(ascii: "."))
        Base64URL.append(raw, to: &input)
        return String(decoding: input, as: UTF8.self)
    }

    private static func jsonString(_ text: String) -> String {
        "\"" + JSONValue.escaped(text) + "\""
    }
}
