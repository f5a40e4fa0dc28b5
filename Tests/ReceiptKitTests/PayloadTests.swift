import Foundation
import Testing

@testable import ReceiptKit

@Suite("Receipt payload: parsing and encoding")
struct PayloadTests {
    static let created = Date(receiptMilliseconds: 1_736_935_200_000)

    static func richReceipt() -> AppReceipt {
        AppReceipt(
            receiptType: "ProductionSandbox", bundleIdentifier: "com.example.app", applicationVersion: "42",
            opaqueValue: [UInt8](0..<16), sha1Hash: [UInt8](100..<120), creationDate: created,
            inAppPurchases: [
                InAppPurchaseReceipt(
                    quantity: 3, productIdentifier: "com.example.coins", transactionIdentifier: "1000000000000001",
                    purchaseDate: created.addingTimeInterval(-3600), originalTransactionIdentifier: "1000000000000001",
                    originalPurchaseDate: created.addingTimeInterval(-3600), productType: .consumable),
                InAppPurchaseReceipt(
                    productIdentifier: "com.example.monthly", transactionIdentifier: "1000000000000002",
                    purchaseDate: Date(receiptMilliseconds: 1_736_931_600_250),
                    originalTransactionIdentifier: "1000000000000002",
                    originalPurchaseDate: Date(receiptMilliseconds: 1_736_931_600_250),
                    productType: .autoRenewableSubscription,
                    subscriptionExpirationDate: Date(receiptMilliseconds: 1_739_610_000_999),
                    webOrderLineItemIdentifier: Int64.max, cancellationDate: created, isTrialPeriod: true,
                    isInIntroOfferPeriod: true, promotionalOfferIdentifier: "com.example.monthly.offer",
                    unknownAttributes: [ReceiptAttribute(type: 1710, value: [0x02, 0x01, 0x00])]),
            ],
            originalApplicationVersion: "1.0", expirationDate: Date(receiptMilliseconds: 64_092_211_200_000),
            unknownAttributes: [
                ReceiptAttribute(type: 1, value: [0x02, 0x01, 0x00]),
                ReceiptAttribute(type: 6, version: 1, value: [0xDE, 0xAD, 0xBE, 0xEF]),
            ])
    }

    /// A payload written attribute by attribute, in the given order, not sorted.
    static func payload(_ attributes: [(Int, [UInt8])]) -> [UInt8] {
        var writer = DERWriter()
        writer.appendConstructed(.set) { set in
            for (type, value) in attributes { set.appendAttribute(type, raw: value) }
        }
        return writer.bytes
    }

    static func utf8(_ text: String) -> [UInt8] {
        var writer = DERWriter()
        writer.appendUTF8String(text)
        return writer.bytes
    }

    static func ia5(_ text: String) -> [UInt8] {
        var writer = DERWriter()
        writer.appendIA5String(text)
        return writer.bytes
    }

    static let required: [(Int, [UInt8])] = [
        (2, utf8("com.example.app")), (3, utf8("1")), (4, [1, 2, 3, 4]), (5, [UInt8](repeating: 9, count: 20)),
        (12, ia5("2025-01-15T10:00:00Z")),
    ]

    @Test("a receipt with every attribute round-trips through DER")
    func roundTrip() throws {
        let receipt = Self.richReceipt()
        let encoded = receipt.derEncoded()
        var parsed = try AppReceipt(derEncoded: encoded)
        #expect(Set(parsed.inAppPurchases) == Set(receipt.inAppPurchases))
        parsed.inAppPurchases = receipt.inAppPurchases
        #expect(parsed == receipt)
        #expect(parsed.environment == .sandbox)
        #expect(try AppReceipt(derEncoded: encoded).derEncoded() == encoded)
    }

    @Test("the encoding is DER with the SET sorted, as in App Store receipts")
    func encodingIsSortedDER() throws {
        let encoded = Self.richReceipt().derEncoded()
        let node = try ASN1Node(parsing: encoded, rules: .der)
        let children = node.children.map { $0.derEncoded() }
        #expect(children == children.sorted { $0.lexicographicallyPrecedes($1) })
        #expect(children.count == 12)  // 0, 1, 2, 3, 4, 5, 6, 12, 17 twice, 19, 21
        // The opaque value is attribute version 2, as the App Store writes it.
        #expect(children.contains([0x30, 0x18, 0x02, 0x01, 0x04, 0x02, 0x01, 0x02, 0x04, 0x10] + [UInt8](0..<16)))
    }

    @Test("the minimal payload parses; optional fields are absent")
    func minimalPayload() throws {
        let receipt = try AppReceipt(derEncoded: Self.payload(Self.required))
        #expect(receipt.bundleIdentifier == "com.example.app")
        #expect(receipt.receiptType == nil)
        #expect(receipt.environment == nil)
        #expect(receipt.originalApplicationVersion == nil)
        #expect(receipt.expirationDate == nil)
        #expect(receipt.inAppPurchases.isEmpty)
        #expect(receipt.creationDate == Date(receiptMilliseconds: 1_736_935_200_000))
    }

    @Test("attributes in any order parse to the same receipt")
    func orderDoesNotMatter() throws {
        let forward = try AppReceipt(derEncoded: Self.payload(Self.required + [(99, [1]), (98, [2])]))
        let backward = try AppReceipt(derEncoded: Self.payload((Self.required + [(99, [1]), (98, [2])]).reversed()))
        #expect(forward == backward)
        #expect(forward.unknownAttributes.map(\.type) == [98, 99])
    }

    @Test("each required attribute is required", arguments: [2, 3, 4, 5, 12])
    func requiredAttributes(type: Int) throws {
        let error = try #require(throws: ReceiptError.self) {
            try AppReceipt(derEncoded: Self.payload(Self.required.filter { $0.0 != type }))
        }
        #expect(error.code == .missingAttribute)
        #expect(error.detail.contains("attribute \(type)"))
    }

    @Test("an empty creation date counts as missing; an empty expiration date as absent")
    func emptyDates() throws {
        let withEmptyExpiration = Self.required + [(21, Self.ia5(""))]
        #expect(try AppReceipt(derEncoded: Self.payload(withEmptyExpiration)).expirationDate == nil)
        var emptyCreation = Self.required.filter { $0.0 != 12 }
        emptyCreation.append((12, Self.ia5("")))
        #expect(throws: ReceiptError(.missingAttribute)) { try AppReceipt(derEncoded: Self.payload(emptyCreation)) }
    }

    @Test("unknown attributes are kept in a canonical order, so equal sets compare equal")
    func unknownAttributesCanonical() throws {
        let a = ReceiptAttribute(type: 9, value: [2])
        let b = ReceiptAttribute(type: 9, version: 2, value: [1])
        let c = ReceiptAttribute(type: 1, value: [0xFF, 0x00])
        let d = ReceiptAttribute(type: 9, value: [1, 5])
        var first = Self.richReceipt()
        first.unknownAttributes = [a, b, c, d]
        var second = Self.richReceipt()
        second.unknownAttributes = [d, c, b, a]
        #expect(first == second)
        #expect(first.unknownAttributes == [c, d, a, b])
        #expect(try AppReceipt(derEncoded: first.derEncoded()).unknownAttributes == [c, d, a, b])
        var purchase = first.inAppPurchases[0]
        purchase.unknownAttributes = [ReceiptAttribute(type: 1722, value: [])]
        #expect(purchase.unknownAttributes == [ReceiptAttribute(type: 1722, value: [])])
        #expect(
            try AppReceipt(
                derEncoded: AppReceipt(
                    bundleIdentifier: "b", applicationVersion: "1", opaqueValue: [], sha1Hash: [],
                    creationDate: Self.created, inAppPurchases: [purchase]
                ).derEncoded()
            ).inAppPurchases[0].unknownAttributes.map(\.type) == [1722])
    }

    @Test("a documented attribute twice is rejected; unknown ones may repeat")
    func duplicates() throws {
        let doubled = Self.required + [(2, Self.utf8("com.evil.app"))]
        let error = try #require(throws: ReceiptError.self) { try AppReceipt(derEncoded: Self.payload(doubled)) }
        #expect(error.code == .duplicateAttribute)
        #expect(error.offset != nil)
        let unknownTwice = Self.required + [(7, [1]), (7, [1])]
        #expect(try AppReceipt(derEncoded: Self.payload(unknownTwice)).unknownAttributes.count == 2)
    }

    @Test("a duplicate in-app attribute is rejected")
    func inAppDuplicates() throws {
        var inApp = DERWriter()
        inApp.appendConstructed(.set) { set in
            set.appendAttribute(1701, integer: 1)
            set.appendAttribute(1702, utf8: "a")
            set.appendAttribute(1703, utf8: "1")
            set.appendAttribute(1704, date: 0)
            set.appendAttribute(1703, utf8: "2")
        }
        let error = try #require(throws: ReceiptError.self) {
            try AppReceipt(derEncoded: Self.payload(Self.required + [(17, inApp.bytes)]))
        }
        #expect(error.code == .duplicateAttribute)
        #expect(error.detail.contains("in-app purchase #0"))
    }

    @Test("values of the wrong type are rejected with their offset")
    func wrongTypes() throws {
        var integer = DERWriter()
        integer.appendInteger(5)
        let wrong = Self.required.filter { $0.0 != 2 } + [(2, integer.bytes)]
        let error = try #require(throws: ReceiptError.self) { try AppReceipt(derEncoded: Self.payload(wrong)) }
        #expect(error.code == .unexpectedElement)
        #expect(error.offset != nil)

        let badUTF8 = Self.required.filter { $0.0 != 3 } + [(3, [0x0C, 0x02, 0xC3, 0x28])]
        #expect(throws: ReceiptError(.invalidString)) { try AppReceipt(derEncoded: Self.payload(badUTF8)) }

        let badDate = Self.required.filter { $0.0 != 12 } + [(12, Self.ia5("2025-02-30T00:00:00Z"))]
        #expect(throws: ReceiptError(.invalidDate)) { try AppReceipt(derEncoded: Self.payload(badDate)) }

        let trailing = Self.required.filter { $0.0 != 3 } + [(3, Self.utf8("1") + [0x05, 0x00])]
        #expect(throws: ReceiptError(.trailingBytes)) { try AppReceipt(derEncoded: Self.payload(trailing)) }
    }

    @Test("INTEGERs up to 64 bits are read; wider ones are rejected")
    func wideIntegers() throws {
        func inApp(_ webOrder: [UInt8]) -> [(Int, [UInt8])] {
            var set = DERWriter()
            set.appendConstructed(.set) { set in
                set.appendAttribute(1701, integer: 1)
                set.appendAttribute(1702, utf8: "a")
                set.appendAttribute(1703, utf8: "1")
                set.appendAttribute(1704, date: 0)
                set.appendAttribute(1711, raw: webOrder)
            }
            return Self.required + [(17, set.bytes)]
        }
        let fiftyOneBits: [UInt8] = [0x02, 0x07, 0x07, 0x1A, 0xFD, 0x50, 0xE7, 0x48, 0x2D]
        let parsed = try AppReceipt(derEncoded: Self.payload(inApp(fiftyOneBits)))
        #expect(parsed.inAppPurchases[0].webOrderLineItemIdentifier == 2_000_000_123_357_229)
        let max: [UInt8] = [0x02, 0x08, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        #expect(
            try AppReceipt(derEncoded: Self.payload(inApp(max))).inAppPurchases[0].webOrderLineItemIdentifier == .max)
        let tooWide: [UInt8] = [0x02, 0x09, 0x00, 0x80, 0, 0, 0, 0, 0, 0, 0]
        #expect(throws: ReceiptError(.invalidInteger)) { try AppReceipt(derEncoded: Self.payload(inApp(tooWide))) }
        let empty: [UInt8] = [0x02, 0x00]
        #expect(throws: ReceiptError(.invalidInteger)) { try AppReceipt(derEncoded: Self.payload(inApp(empty))) }
    }

    @Test(
        "DER refuses INTEGERs with a redundant leading octet, positive or negative; BER reads them",
        arguments: [
            ([0x02, 0x02, 0x00, 0x05], 5), ([0x02, 0x02, 0xFF, 0x85], -123), ([0x02, 0x03, 0xFF, 0xFF, 0x01], -255),
        ] as [([UInt8], Int64)])
    func nonMinimalIntegers(encoding: [UInt8], value: Int64) throws {
        func read(_ rules: ASN1EncodingRules) throws(ReceiptError) -> Int64 {
            try withBytes(encoding) { (raw) throws(ReceiptError) -> Int64 in
                let scanner = BERScanner(raw, rules: rules)
                return try scanner.int64(scanner.single(in: 0..<raw.count), "the value")
            }
        }
        let error = try #require(throws: ReceiptError.self) { try read(.der) }
        #expect(error.code == .invalidInteger)
        #expect(error.message.contains("not minimally encoded"))
        #expect(try read(.ber) == value)
    }

    @Test("dates in every form seen parse inside a payload")
    func dateForms() throws {
        for (text, milliseconds) in [
            ("2020-10-16T14:29:30+0300", Int64(1_602_847_770_000)), ("2020-10-16T14:29:30+03:00", 1_602_847_770_000),
            ("2020-10-16T11:29:30.686Z", 1_602_847_770_686), ("2020-10-16T11:29:30Z", 1_602_847_770_000),
        ] {
            let payload = Self.payload(Self.required.filter { $0.0 != 12 } + [(12, Self.ia5(text))])
            #expect(try AppReceipt(derEncoded: payload).creationDate.receiptMilliseconds == milliseconds)
        }
    }

    @Test("BER payloads: indefinite lengths and segmented values")
    func berPayload() throws {
        // SET (indefinite) { SEQUENCE (indefinite) { 2, 1, OCTET STRING constructed { "com." "example.app" as one
        // UTF8String split over two segments } } ... }
        var body: [UInt8] = []
        for (type, value) in Self.required {
            var attribute = DERWriter()
            attribute.appendInteger(Int64(type))
            attribute.appendInteger(1)
            let half = value.count / 2
            var segments: [UInt8] = [0x24, 0x80]
            segments += [0x04, UInt8(half)] + value[..<half]
            segments += [0x04, UInt8(value.count - half)] + value[half...]
            segments += [0x00, 0x00]
            body += [0x30, 0x80] + attribute.bytes + segments + [0x00, 0x00]
        }
        // An unknown attribute whose value is segmented too.
        body += [0x30, 0x80, 0x02, 0x01, 0x63, 0x02, 0x01, 0x01, 0x24, 0x80, 0x04, 0x01, 0xAA, 0x04, 0x01, 0xBB]
        body += [0x00, 0x00, 0x00, 0x00]
        let ber: [UInt8] = [0x31, 0x80] + body + [0x00, 0x00]
        let parsed = try AppReceipt(derEncoded: ber)
        #expect(parsed == (try AppReceipt(derEncoded: Self.payload(Self.required + [(99, [0xAA, 0xBB])]))))
        #expect(parsed.unknownAttributes == [ReceiptAttribute(type: 99, value: [0xAA, 0xBB])])
    }

    @Test("the payload must be a SET and fill the input")
    func framing() {
        #expect(throws: ReceiptError(.unexpectedElement)) { try AppReceipt(derEncoded: [0x30, 0x00]) }
        #expect(throws: ReceiptError(.trailingBytes)) {
            try AppReceipt(derEncoded: Self.payload(Self.required) + [0x00])
        }
        #expect(throws: ReceiptError(.truncated)) {
            try AppReceipt(derEncoded: Array(Self.payload(Self.required).dropLast()))
        }
        #expect(throws: ReceiptError(.truncated)) { try AppReceipt(derEncoded: []) }
    }

    @Test("the device hash is SHA-1 of device id, opaque value and the bundle id's DER")
    func deviceHash() throws {
        let device = try DeviceIdentifier(parsing: "956328D9-CC6A-47F4-BE40-6953FB0AB6C7")
        var receipt = Self.richReceipt()
        receipt.sha1Hash = receipt.deviceHash(for: device)
        #expect(receipt.sha1Hash.count == 20)
        #expect(receipt.matches(device: device))
        #expect(!receipt.matches(device: try DeviceIdentifier(parsing: "6c:40:08:b5:94:5e")))
        #expect(
            AppReceipt.deviceHash(for: device, opaqueValue: receipt.opaqueValue, bundleIdentifier: "com.example.app")
                == receipt.sha1Hash)
    }
}
