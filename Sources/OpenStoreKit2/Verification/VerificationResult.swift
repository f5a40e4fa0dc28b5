public import Foundation

/// A value the App Store signed, with the outcome of checking its signature: `.verified` only when ReceiptKit's
/// `JWSVerifier` accepted the JWS against the store's root, `.unverified` with the reason otherwise.
///
/// ```swift
/// switch result {
/// case .verified(let transaction): deliver(transaction)
/// case .unverified(let transaction, let error): refuse(transaction, error)
/// }
/// ```
@frozen
public enum VerificationResult<SignedType> {
    /// The JWS did not pass verification; the payload is what it says, unchecked.
    case unverified(SignedType, VerificationResult<SignedType>.VerificationError)
    /// The JWS passed verification.
    case verified(SignedType)

    /// Why a JWS did not pass verification.
    public enum VerificationError: Error, Equatable, Hashable, Sendable, LocalizedError {
        /// A certificate of the chain was revoked.
        case revokedCertificate
        /// The certificate chain is missing, malformed, untrusted, expired or lacks Apple's marker extensions.
        case invalidCertificateChain
        /// The value is not for this app or device: another bundle identifier, environment or device.
        case invalidDeviceVerification
        /// The JWS or its payload cannot be decoded.
        case invalidEncoding
        /// The signature does not match the header and payload.
        case invalidSignature
        /// The payload lacks a property it must have.
        case missingRequiredProperties

        /// A description for people.
        public var errorDescription: String? {
            switch self {
            case .revokedCertificate: "A certificate in the chain was revoked."
            case .invalidCertificateChain: "The certificate chain is not valid."
            case .invalidDeviceVerification: "The signed value is not for this app or device."
            case .invalidEncoding: "The signed value cannot be decoded."
            case .invalidSignature: "The signature is not valid."
            case .missingRequiredProperties: "The signed value lacks required properties."
            }
        }
    }

    /// The payload if it was verified.
    ///
    /// - Throws: the ``VerificationError`` when it was not.
    public var payloadValue: SignedType {
        get throws {
            switch self {
            case .verified(let value): return value
            case .unverified(_, let error): throw error
            }
        }
    }

    /// The payload, verified or not.
    public var unsafePayloadValue: SignedType {
        switch self {
        case .verified(let value): value
        case .unverified(let value, _): value
        }
    }
}

extension VerificationResult: Sendable where SignedType: Sendable {}

extension VerificationResult: CustomDebugStringConvertible {
    /// The result for debugging: `verified(` or `unverified(` with the payload's debug description, and the reason
    /// it failed.
    public var debugDescription: String {
        switch self {
        case .verified(let value): "verified(\(String(reflecting: value)))"
        case .unverified(let value, let error): "unverified(\(String(reflecting: value)), \(error))"
        }
    }
}
extension VerificationResult: Equatable where SignedType: Equatable {}
extension VerificationResult: Hashable where SignedType: Hashable {}

extension VerificationResult where SignedType: SignedPayload {
    /// The compact JWS the App Store signed.
    public var jwsRepresentation: String { unsafePayloadValue.signed.jws }
    /// The JWS header's JSON bytes.
    public var headerData: Data { unsafePayloadValue.signed.headerData }
    /// The JWS payload's JSON bytes.
    public var payloadData: Data { unsafePayloadValue.signed.payloadData }
    /// The JWS signature's bytes (64 bytes, `r‖s`).
    public var signatureData: Data { unsafePayloadValue.signed.signatureData }
    /// The bytes the signature covers: `header.payload` as ASCII.
    public var signedData: Data { unsafePayloadValue.signed.signedData }
    /// When the App Store signed the value.
    public var signedDate: Date { unsafePayloadValue.signedDate }
    /// The device verification value of the payload.
    public var deviceVerification: Data { unsafePayloadValue.deviceVerification }
    /// The nonce of the device verification value.
    public var deviceVerificationNonce: UUID { unsafePayloadValue.deviceVerificationNonce }
}
