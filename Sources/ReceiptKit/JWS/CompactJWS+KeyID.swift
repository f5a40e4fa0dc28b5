extension CompactJWS {
    /// Checks a JWS signed with a key the verifier was given by id, as App Store Connect keys sign (App Store Server
    /// API tokens, signed offers): the header's `alg` is `ES256`, its `kid` names one of `keys`, and the signature
    /// verifies with that key.
    ///
    /// - Parameter keys: The keys that may sign, by key id.
    /// - Returns: The key id that signed.
    /// - Throws: ``ReceiptError/Code/unsupportedAlgorithm`` for another `alg`, ``ReceiptError/Code/signerNotFound``
    ///   for a missing or unknown `kid`, ``ReceiptError/Code/signatureInvalid`` for a signature that does not verify.
    public func keyID(verifiedWith keys: [String: some JWSVerifyingKey]) throws(ReceiptError) -> String {
        guard algorithm == "ES256" else {
            throw ReceiptError(.unsupportedAlgorithm, "alg must be ES256, not \(algorithm ?? "missing")")
        }
        guard let keyID = keyIdentifier else { throw ReceiptError(.signerNotFound, "the header has no kid") }
        guard let key = keys[keyID] else {
            let shown = keyID.count > 64 ? String(keyID.prefix(64)) + "..." : keyID
            throw ReceiptError(.signerNotFound, "kid \(shown.debugDescription) is not a key the verifier was given")
        }
        guard key.isValidSignature(signature, for: signingInput) else {
            throw ReceiptError(.signatureInvalid, "the ES256 signature does not verify with key \(keyID)")
        }
        return keyID
    }
}
