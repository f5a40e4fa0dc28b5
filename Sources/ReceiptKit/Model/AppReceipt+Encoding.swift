extension AppReceipt {
    /// Encodes the receipt as a payload in DER: a `SET OF ReceiptAttribute`, sorted as DER requires, the way the
    /// App Store writes it. Sign the result with ``ReceiptSigner``.
    ///
    /// Strings are UTF8String, dates IA5String RFC 3339 in UTC (with milliseconds when they are not whole seconds),
    /// the opaque value and hash raw bytes. Attributes that are nil are left out; unknown attributes are written
    /// back as they were.
    ///
    /// - Returns: The payload bytes.
    public func derEncoded() -> [UInt8] {
        var writer = DERWriter(reservingCapacity: 256 + inAppPurchases.count * 400)
        writer.appendSetOf { set in
            if let receiptType { set.appendAttribute(PayloadParser.AppType.receiptType, utf8: receiptType) }
            set.appendAttribute(PayloadParser.AppType.bundleIdentifier, utf8: bundleIdentifier)
            set.appendAttribute(PayloadParser.AppType.applicationVersion, utf8: applicationVersion)
            set.appendAttribute(PayloadParser.AppType.opaqueValue, version: 2, raw: opaqueValue)
            set.appendAttribute(PayloadParser.AppType.sha1Hash, raw: sha1Hash)
            set.appendAttribute(PayloadParser.AppType.creationDate, date: creationDate.receiptMilliseconds)
            for purchase in inAppPurchases {
                set.appendAttribute(PayloadParser.AppType.inAppPurchase) { value in
                    purchase.encode(into: &value)
                }
            }
            if let originalApplicationVersion {
                set.appendAttribute(PayloadParser.AppType.originalApplicationVersion, utf8: originalApplicationVersion)
            }
            if let expirationDate {
                set.appendAttribute(PayloadParser.AppType.expirationDate, date: expirationDate.receiptMilliseconds)
            }
            set.appendEncoded(unknownStorage.encoded)
        }
        return writer.bytes
    }
}

extension InAppPurchaseReceipt {
    /// Encodes this purchase as the DER `SET OF InAppAttribute` that is the value of payload attribute 17.
    ///
    /// - Returns: The encoded SET.
    public func derEncoded() -> [UInt8] {
        var writer = DERWriter(reservingCapacity: 400)
        encode(into: &writer)
        return writer.bytes
    }

    func encode(into writer: inout DERWriter) {
        typealias T = PayloadParser.InAppType
        writer.appendSetOf { set in
            set.appendAttribute(T.quantity, integer: Int64(quantity))
            set.appendAttribute(T.productIdentifier, utf8: productIdentifier)
            set.appendAttribute(T.transactionIdentifier, utf8: transactionIdentifier)
            set.appendAttribute(T.purchaseDate, date: purchaseDate.receiptMilliseconds)
            if let originalTransactionIdentifier {
                set.appendAttribute(T.originalTransactionIdentifier, utf8: originalTransactionIdentifier)
            }
            if let originalPurchaseDate {
                set.appendAttribute(T.originalPurchaseDate, date: originalPurchaseDate.receiptMilliseconds)
            }
            if let productType { set.appendAttribute(T.productType, integer: productType.rawValue) }
            if let subscriptionExpirationDate {
                set.appendAttribute(T.subscriptionExpirationDate, date: subscriptionExpirationDate.receiptMilliseconds)
            }
            if let webOrderLineItemIdentifier {
                set.appendAttribute(T.webOrderLineItemIdentifier, integer: webOrderLineItemIdentifier)
            }
            if let cancellationDate {
                set.appendAttribute(T.cancellationDate, date: cancellationDate.receiptMilliseconds)
            }
            set.appendAttribute(T.isTrialPeriod, integer: isTrialPeriod ? 1 : 0)
            set.appendAttribute(T.isInIntroOfferPeriod, integer: isInIntroOfferPeriod ? 1 : 0)
            if let promotionalOfferIdentifier {
                set.appendAttribute(T.promotionalOfferIdentifier, utf8: promotionalOfferIdentifier)
            }
            set.appendEncoded(unknownStorage.encoded)
        }
    }
}

extension DERWriter {
    /// Writes `SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }` with the value written by `body`.
    mutating func appendAttribute(_ type: Int, version: Int = 1, _ body: (inout DERWriter) -> Void) {
        appendSequence { sequence in
            sequence.appendInteger(Int64(type))
            sequence.appendInteger(Int64(version))
            sequence.appendOctetString(wrapping: body)
        }
    }

    mutating func appendAttribute(_ type: Int, version: Int = 1, raw: [UInt8]) {
        appendSequence { sequence in
            sequence.appendInteger(Int64(type))
            sequence.appendInteger(Int64(version))
            sequence.appendOctetString(raw)
        }
    }

    mutating func appendAttribute(_ type: Int, utf8 value: String) {
        appendAttribute(type) { $0.appendUTF8String(value) }
    }

    mutating func appendAttribute(_ type: Int, integer value: Int64) {
        appendAttribute(type) { $0.appendInteger(value) }
    }

    mutating func appendAttribute(_ type: Int, date milliseconds: Int64) {
        appendAttribute(type) { $0.appendIA5String(RFC3339.format(milliseconds: milliseconds)) }
    }
}
