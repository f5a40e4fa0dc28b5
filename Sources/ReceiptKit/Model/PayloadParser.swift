import Foundation

/// Parses a receipt payload (`SET OF ReceiptAttribute`) with one pass over the bytes and no per-element allocation.
enum PayloadParser {
    /// A parsed payload, with where the bundle identifier's raw value lies (for the device hash).
    struct Parsed {
        var receipt: AppReceipt
        var bundleIdentifierValue: ContentBytes
    }

    /// The attribute types of the app receipt that ReceiptKit interprets.
    enum AppType {
        static let receiptType = 0
        static let bundleIdentifier = 2
        static let applicationVersion = 3
        static let opaqueValue = 4
        static let sha1Hash = 5
        static let creationDate = 12
        static let inAppPurchase = 17
        static let originalApplicationVersion = 19
        static let expirationDate = 21
    }

    /// The attribute types of an in-app purchase receipt that ReceiptKit interprets.
    enum InAppType {
        static let quantity = 1701
        static let productIdentifier = 1702
        static let transactionIdentifier = 1703
        static let purchaseDate = 1704
        static let originalTransactionIdentifier = 1705
        static let originalPurchaseDate = 1706
        static let productType = 1707
        static let subscriptionExpirationDate = 1708
        static let webOrderLineItemIdentifier = 1711
        static let cancellationDate = 1712
        static let isTrialPeriod = 1713
        static let isInIntroOfferPeriod = 1719
        static let promotionalOfferIdentifier = 1721
    }

    /// One `ReceiptAttribute ::= SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }`.
    struct Attribute {
        var type: Int
        var version: Int
        var value: TLV
        /// The offset just past the attribute SEQUENCE.
        var end: Int
    }

    /// Reads the attribute SEQUENCE that starts at `position`.
    @inline(__always)
    static func attribute(_ s: BERScanner, at position: Int, limit: Int, depth: Int) throws(ReceiptError) -> Attribute {
        let sequence = try s.element(at: position, limit: limit, depth: depth)
        try s.expect(sequence, 0x30, "an attribute SEQUENCE")
        let typeElement = try s.element(at: sequence.contentStart, limit: sequence.contentEnd, depth: depth + 1)
        let type = try s.int64(typeElement, "attribute type")
        let versionElement = try s.element(at: typeElement.end, limit: sequence.contentEnd, depth: depth + 1)
        let version = try s.int64(versionElement, "attribute version")
        let value = try s.element(at: versionElement.end, limit: sequence.contentEnd, depth: depth + 1)
        guard value.primitiveIdentifier == 0x04 else {
            throw s.error(
                .unexpectedElement, "expected the attribute value OCTET STRING, found \(value.tag)", at: value.offset)
        }
        guard value.end == sequence.contentEnd else {
            throw s.error(.unexpectedElement, "an attribute has more than 3 elements", at: value.end)
        }
        guard let type = Int(exactly: type), let version = Int(exactly: version) else {
            throw s.error(.invalidInteger, "attribute type or version out of range", at: typeElement.offset)
        }
        return Attribute(type: type, version: version, value: value, end: sequence.end)
    }

    /// Calls `body` with a scanner and the range holding an attribute value's bytes (joining BER segments if needed).
    @inline(__always)
    static func withValue<R>(
        _ s: BERScanner, _ value: TLV, depth: Int, _ body: (BERScanner, Range<Int>) throws(ReceiptError) -> R
    ) throws(ReceiptError) -> R {
        switch try s.contentBytes(value, depth: depth) {
        case .range(let range):
            return try body(s, range)
        case .joined(let joined):
            return try withBytes(joined) { (raw) throws(ReceiptError) -> R in
                let inner = BERScanner(
                    raw, rules: s.rules, reportedBase: value.offset,
                    context: "in the joined segments of the value at offset \(value.offset)")
                return try body(inner, 0..<raw.count)
            }
        }
    }

    static func rawValue(_ s: BERScanner, _ value: TLV, depth: Int) throws(ReceiptError) -> [UInt8] {
        switch try s.contentBytes(value, depth: depth) {
        case .range(let range): return s.copy(range)
        case .joined(let joined): return joined
        }
    }

    static func duplicate(_ s: BERScanner, _ type: Int, _ value: TLV) -> ReceiptError {
        s.error(.duplicateAttribute, "attribute \(type) appears more than once", at: value.offset)
    }

    static func missing(_ s: BERScanner, _ type: Int, _ name: String, at offset: Int, in place: String) -> ReceiptError
    {
        s.error(.missingAttribute, "attribute \(type) (\(name)) is missing \(place)", at: offset)
    }

    /// Parses a payload that fills `range` of the scanner's buffer.
    static func parse(_ s: BERScanner, range: Range<Int>) throws(ReceiptError) -> Parsed {
        let root = try s.single(in: range)
        try s.expect(root, 0x31, "the payload SET of attributes")
        var receiptType: String?
        var bundleIdentifier: String?
        var bundleValue: ContentBytes?
        var applicationVersion: String?
        var opaqueValue: [UInt8]?
        var sha1Hash: [UInt8]?
        var creation: Int64?
        var creationSeen = false
        var purchases: [InAppPurchaseReceipt] = []
        var originalApplicationVersion: String?
        var expiration: Int64?
        var expirationSeen = false
        var unknown: [UnknownAttributes.Entry] = []
        var inAppScratch: [UnknownAttributes.Entry] = []

        var position = root.contentStart
        while position < root.contentEnd {
            let attribute = try attribute(s, at: position, limit: root.contentEnd, depth: 1)
            position = attribute.end
            let value = attribute.value
            switch attribute.type {
            case AppType.receiptType:
                guard receiptType == nil else { throw duplicate(s, attribute.type, value) }
                receiptType = try withValue(s, value, depth: 3) { (s, r) throws(ReceiptError) in
                    try s.string(s.single(in: r, depth: 3), "receipt type (0)", depth: 3)
                }
            case AppType.bundleIdentifier:
                guard bundleIdentifier == nil else { throw duplicate(s, attribute.type, value) }
                bundleIdentifier = try withValue(s, value, depth: 3) { (s, r) throws(ReceiptError) in
                    try s.string(s.single(in: r, depth: 3), "bundle identifier (2)", depth: 3)
                }
                bundleValue = try s.contentBytes(value, depth: 3)
            case AppType.applicationVersion:
                guard applicationVersion == nil else { throw duplicate(s, attribute.type, value) }
                applicationVersion = try withValue(s, value, depth: 3) { (s, r) throws(ReceiptError) in
                    try s.string(s.single(in: r, depth: 3), "application version (3)", depth: 3)
                }
            case AppType.opaqueValue:
                guard opaqueValue == nil else { throw duplicate(s, attribute.type, value) }
                opaqueValue = try rawValue(s, value, depth: 3)
            case AppType.sha1Hash:
                guard sha1Hash == nil else { throw duplicate(s, attribute.type, value) }
                sha1Hash = try rawValue(s, value, depth: 3)
            case AppType.creationDate:
                guard !creationSeen else { throw duplicate(s, attribute.type, value) }
                creationSeen = true
                creation = try withValue(s, value, depth: 3) { (s, r) throws(ReceiptError) in
                    try s.dateMilliseconds(s.single(in: r, depth: 3), "creation date (12)", depth: 3)
                }
            case AppType.inAppPurchase:
                let index = purchases.count
                let purchase = try withValue(s, value, depth: 3) { (s, r) throws(ReceiptError) in
                    try parseInApp(s, range: r, index: index, scratch: &inAppScratch)
                }
                purchases.append(purchase)
            case AppType.originalApplicationVersion:
                guard originalApplicationVersion == nil else { throw duplicate(s, attribute.type, value) }
                originalApplicationVersion = try withValue(s, value, depth: 3) { (s, r) throws(ReceiptError) in
                    try s.string(s.single(in: r, depth: 3), "original application version (19)", depth: 3)
                }
            case AppType.expirationDate:
                guard !expirationSeen else { throw duplicate(s, attribute.type, value) }
                expirationSeen = true
                expiration = try withValue(s, value, depth: 3) { (s, r) throws(ReceiptError) in
                    try s.dateMilliseconds(s.single(in: r, depth: 3), "expiration date (21)", depth: 3)
                }
            default:
                unknown.append(
                    UnknownAttributes.Entry(
                        type: attribute.type, version: attribute.version, value: try s.contentBytes(value, depth: 3)))
            }
        }
        let place = "from the payload"
        guard let bundleIdentifier, let bundleValue else {
            throw missing(s, AppType.bundleIdentifier, "bundle_id", at: root.offset, in: place)
        }
        guard let applicationVersion else {
            throw missing(s, AppType.applicationVersion, "application_version", at: root.offset, in: place)
        }
        guard let opaqueValue else {
            throw missing(s, AppType.opaqueValue, "opaque value", at: root.offset, in: place)
        }
        guard let sha1Hash else { throw missing(s, AppType.sha1Hash, "SHA-1 hash", at: root.offset, in: place) }
        guard let creation else {
            throw missing(s, AppType.creationDate, "receipt_creation_date", at: root.offset, in: place)
        }
        var receipt = AppReceipt(
            receiptType: receiptType, bundleIdentifier: bundleIdentifier, applicationVersion: applicationVersion,
            opaqueValue: opaqueValue, sha1Hash: sha1Hash, creationDate: Date(receiptMilliseconds: creation),
            inAppPurchases: purchases, originalApplicationVersion: originalApplicationVersion,
            expirationDate: expiration.map(Date.init(receiptMilliseconds:)))
        receipt.unknownStorage = UnknownAttributes(taking: &unknown, from: s)
        return Parsed(receipt: receipt, bundleIdentifierValue: bundleValue)
    }

    /// One bit per documented in-app attribute type, counted from 1701: 1701...1708, 1711...1713, 1719, 1721.
    static let knownInAppMask: UInt32 = {
        var mask: UInt32 = 0
        for type in [1701, 1702, 1703, 1704, 1705, 1706, 1707, 1708, 1711, 1712, 1713, 1719, 1721] {
            mask |= 1 << UInt32(type - 1701)
        }
        return mask
    }()

    /// Parses the `SET OF InAppAttribute` of one in-app purchase (the value of attribute 17).
    static func parseInApp(
        _ s: BERScanner, range: Range<Int>, index: Int, scratch unknown: inout [UnknownAttributes.Entry]
    ) throws(ReceiptError) -> InAppPurchaseReceipt {
        let root = try s.single(in: range, depth: 3)
        try s.expect(root, 0x31, "the SET of in-app purchase #\(index) attributes")
        var quantity: Int?
        var productIdentifier: String?
        var transactionIdentifier: String?
        var purchase: Int64?
        var originalTransactionIdentifier: String?
        var originalPurchase: Int64?
        var productType: InAppProductType?
        var expiration: Int64?
        var webOrderLineItemIdentifier: Int64?
        var cancellation: Int64?
        var isTrialPeriod: Bool?
        var isInIntroOfferPeriod: Bool?
        var promotionalOfferIdentifier: String?
        var seen: UInt32 = 0
        unknown.removeAll(keepingCapacity: true)

        var position = root.contentStart
        while position < root.contentEnd {
            let attribute = try attribute(s, at: position, limit: root.contentEnd, depth: 4)
            position = attribute.end
            let value = attribute.value
            let type = attribute.type
            if type >= InAppType.quantity && type <= InAppType.promotionalOfferIdentifier {
                let bit: UInt32 = 1 << UInt32(type - InAppType.quantity)
                if bit & knownInAppMask != 0 {
                    guard seen & bit == 0 else {
                        throw s.error(
                            .duplicateAttribute,
                            "attribute \(type) appears more than once in in-app purchase #\(index)", at: value.offset)
                    }
                    seen |= bit
                }
            }
            switch type {
            case InAppType.quantity:
                quantity = try withValue(s, value, depth: 6) { (s, r) throws(ReceiptError) in
                    try Int(s.int64(s.single(in: r, depth: 6), "quantity (1701)"))
                }
            case InAppType.productIdentifier:
                productIdentifier = try withValue(s, value, depth: 6) { (s, r) throws(ReceiptError) in
                    try s.string(s.single(in: r, depth: 6), "product identifier (1702)", depth: 6)
                }
            case InAppType.transactionIdentifier:
                transactionIdentifier = try withValue(s, value, depth: 6) { (s, r) throws(ReceiptError) in
                    try s.string(s.single(in: r, depth: 6), "transaction identifier (1703)", depth: 6)
                }
            case InAppType.purchaseDate:
                purchase = try withValue(s, value, depth: 6) { (s, r) throws(ReceiptError) in
                    try s.dateMilliseconds(s.single(in: r, depth: 6), "purchase date (1704)", depth: 6)
                }
            case InAppType.originalTransactionIdentifier:
                originalTransactionIdentifier = try withValue(s, value, depth: 6) { (s, r) throws(ReceiptError) in
                    try s.string(s.single(in: r, depth: 6), "original transaction identifier (1705)", depth: 6)
                }
            case InAppType.originalPurchaseDate:
                originalPurchase = try withValue(s, value, depth: 6) { (s, r) throws(ReceiptError) in
                    try s.dateMilliseconds(s.single(in: r, depth: 6), "original purchase date (1706)", depth: 6)
                }
            case InAppType.productType:
                productType = try withValue(s, value, depth: 6) { (s, r) throws(ReceiptError) in
                    try InAppProductType(rawValue: s.int64(s.single(in: r, depth: 6), "product type (1707)"))
                }
            case InAppType.subscriptionExpirationDate:
                expiration = try withValue(s, value, depth: 6) { (s, r) throws(ReceiptError) in
                    try s.dateMilliseconds(s.single(in: r, depth: 6), "subscription expiration date (1708)", depth: 6)
                }
            case InAppType.webOrderLineItemIdentifier:
                webOrderLineItemIdentifier = try withValue(s, value, depth: 6) { (s, r) throws(ReceiptError) in
                    try s.int64(s.single(in: r, depth: 6), "web order line item identifier (1711)")
                }
            case InAppType.cancellationDate:
                cancellation = try withValue(s, value, depth: 6) { (s, r) throws(ReceiptError) in
                    try s.dateMilliseconds(s.single(in: r, depth: 6), "cancellation date (1712)", depth: 6)
                }
            case InAppType.isTrialPeriod:
                isTrialPeriod = try withValue(s, value, depth: 6) { (s, r) throws(ReceiptError) in
                    try s.int64(s.single(in: r, depth: 6), "trial period flag (1713)") != 0
                }
            case InAppType.isInIntroOfferPeriod:
                isInIntroOfferPeriod = try withValue(s, value, depth: 6) { (s, r) throws(ReceiptError) in
                    try s.int64(s.single(in: r, depth: 6), "intro offer flag (1719)") != 0
                }
            case InAppType.promotionalOfferIdentifier:
                let offer = try withValue(s, value, depth: 6) { (s, r) throws(ReceiptError) in
                    try s.string(s.single(in: r, depth: 6), "promotional offer identifier (1721)", depth: 6)
                }
                promotionalOfferIdentifier = offer.isEmpty ? nil : offer
            default:
                unknown.append(
                    UnknownAttributes.Entry(
                        type: type, version: attribute.version, value: try s.contentBytes(value, depth: 6)))
            }
        }
        guard let quantity else {
            throw missing(s, InAppType.quantity, "quantity", at: root.offset, in: "from in-app purchase #\(index)")
        }
        guard let productIdentifier else {
            throw missing(
                s, InAppType.productIdentifier, "product_id", at: root.offset, in: "from in-app purchase #\(index)")
        }
        guard let transactionIdentifier else {
            throw missing(
                s, InAppType.transactionIdentifier, "transaction_id", at: root.offset,
                in: "from in-app purchase #\(index)")
        }
        guard let purchase else {
            throw missing(
                s, InAppType.purchaseDate, "purchase_date", at: root.offset, in: "from in-app purchase #\(index)")
        }
        var result = InAppPurchaseReceipt(
            quantity: quantity, productIdentifier: productIdentifier, transactionIdentifier: transactionIdentifier,
            purchaseDate: Date(receiptMilliseconds: purchase),
            originalTransactionIdentifier: originalTransactionIdentifier,
            originalPurchaseDate: originalPurchase.map(Date.init(receiptMilliseconds:)), productType: productType,
            subscriptionExpirationDate: expiration.map(Date.init(receiptMilliseconds:)),
            webOrderLineItemIdentifier: webOrderLineItemIdentifier,
            cancellationDate: cancellation.map(Date.init(receiptMilliseconds:)), isTrialPeriod: isTrialPeriod ?? false,
            isInIntroOfferPeriod: isInIntroOfferPeriod ?? false, promotionalOfferIdentifier: promotionalOfferIdentifier)
        result.unknownStorage = UnknownAttributes(taking: &unknown, from: s)
        return result
    }
}
