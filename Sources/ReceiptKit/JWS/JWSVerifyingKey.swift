/// A key that checks ES256 signatures (raw R‖S, 64 bytes, as a JWS carries them): ``ES256Key`` (a private key, whose
/// public half checks) or ``OfferVerificationKey`` (a public key).
public protocol JWSVerifyingKey: Sendable {
    /// Whether `signature` (raw R‖S, 64 bytes) is an ES256 signature of `message` by this key.
    func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool
}

extension ES256Key: JWSVerifyingKey {}

extension OfferVerificationKey: JWSVerifyingKey {}
