/// How a store spoils the JWS it hands out, so that a test can see verification fail downstream
/// (``SimulatedStore/jwsTampering``). The store keeps the honest JWS; only what it hands out is spoiled.
public enum JWSTampering: String, Sendable, Hashable, CaseIterable {
    /// Hands out the JWS as signed.
    case none
    /// Changes the payload after signing (its `signedDate` one millisecond later): the signature no longer matches.
    case payload
    /// Changes one byte of the signature.
    case signature
    /// Signs with a certificate of another root (`Receipts/jws/other-root.pem`, in all three `x5c` places): the chain
    /// does not lead to the trusted root.
    case wrongRoot
}
