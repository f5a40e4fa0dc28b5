extension AppReceipt {
    /// Parses a receipt payload: the DER (or BER) `SET OF ReceiptAttribute` that a receipt's signature covers.
    ///
    /// Nothing is verified: use ``ReceiptVerifier`` for receipts from anyone you do not trust.
    ///
    /// - Parameter payload: The payload bytes.
    /// - Throws: ``ReceiptError`` naming the byte offset: ASN.1 errors, ``ReceiptError/Code/missingAttribute``,
    ///   ``ReceiptError/Code/duplicateAttribute``, ``ReceiptError/Code/invalidDate`` and others.
    public init(derEncoded payload: [UInt8]) throws(ReceiptError) {
        self = try withBytes(payload) { (raw) throws(ReceiptError) -> AppReceipt in
            try PayloadParser.parse(BERScanner(raw, rules: .ber, context: "in the payload"), range: 0..<raw.count)
                .receipt
        }
    }

    /// Extracts and parses the payload of a signed (PKCS#7) receipt **without verifying anything**.
    ///
    /// For display and debugging only (`receipt dump`). Anyone can forge what this returns.
    ///
    /// - Parameter receipt: A PKCS#7 receipt in DER or BER.
    /// - Throws: ``ReceiptError/Code/notPKCS7`` and the other container and payload errors.
    public init(unverifiedReceipt receipt: [UInt8]) throws(ReceiptError) {
        self = try withBytes(receipt) { (raw) throws(ReceiptError) -> AppReceipt in
            let container = try SignedDataContainer(raw)
            return try container.withPayload { (scanner, range) throws(ReceiptError) -> AppReceipt in
                try PayloadParser.parse(scanner, range: range).receipt
            }
        }
    }
}
