import Foundation
import ReceiptKit
import Testing

@Suite("JSON rendering with verifyReceipt field names")
struct JSONTests {
    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("the receipt object has Apple's names, string values and date forms")
    func receiptObject() throws {
        var receipt = Issuing.receipt(purchases: 2)
        receipt.inAppPurchases[1].cancellationDate = Date(receiptMilliseconds: 1_736_935_200_123)
        receipt.inAppPurchases[1].promotionalOfferIdentifier = "offer.1"
        receipt.inAppPurchases[1].isInIntroOfferPeriod = true
        receipt.expirationDate = Date(receiptMilliseconds: 64_092_211_200_000)
        let json = try Self.object(ReceiptJSON.receiptObject(receipt))
        #expect(json["bundle_id"] as? String == "com.example.app")
        #expect(json["application_version"] as? String == "7")
        #expect(json["original_application_version"] as? String == "1.0")
        #expect(json["receipt_type"] as? String == "ProductionSandbox")
        #expect(json["receipt_creation_date"] as? String == "2025-01-15 10:00:00 Etc/GMT")
        #expect(json["receipt_creation_date_ms"] as? String == "1736935200000")
        #expect(json["expiration_date"] as? String == "4001-01-01 00:00:00 Etc/GMT")
        let inApp = try #require(json["in_app"] as? [[String: String]])
        #expect(inApp.count == 2)
        let consumable = inApp[0]
        #expect(
            Set(consumable.keys) == [
                "quantity", "product_id", "transaction_id", "original_transaction_id", "purchase_date",
                "purchase_date_ms",
                "original_purchase_date", "original_purchase_date_ms", "is_trial_period", "is_in_intro_offer_period",
            ])
        #expect(consumable["quantity"] == "1")
        #expect(consumable["is_trial_period"] == "false")
        let subscription = inApp[1]
        #expect(subscription["expires_date"] != nil)
        #expect(subscription["web_order_line_item_id"] == "2000000123000001")
        #expect(subscription["cancellation_date"] == "2025-01-15 10:00:00 Etc/GMT")
        #expect(subscription["cancellation_date_ms"] == "1736935200123")
        #expect(subscription["promotional_offer_id"] == "offer.1")
        #expect(subscription["is_trial_period"] == "true")
        #expect(subscription["is_in_intro_offer_period"] == "true")
    }

    @Test("output is deterministic, with sorted keys")
    func deterministic() throws {
        let receipt = Issuing.receipt(purchases: 3)
        let text = ReceiptJSON.receiptObject(receipt)
        #expect(text == ReceiptJSON.receiptObject(receipt))
        let compact = ReceiptJSON.receiptObject(receipt, prettyPrinted: false)
        #expect(!compact.contains("\n"))
        #expect(compact.hasPrefix(#"{"application_version":"7","bundle_id":"com.example.app","in_app":[{"#))
        let lines = text.split(separator: "\n")
        #expect(lines[1] == #"  "application_version": "7","#)
    }

    @Test("documents say whether the receipt was verified")
    func documents() throws {
        let receipt = Issuing.receipt(purchases: 1)
        let verified = try Self.object(ReceiptJSON.document(for: receipt, verified: true))
        #expect(verified["status"] as? Int == 0)
        #expect(verified["verified"] as? Bool == true)
        #expect(verified["environment"] as? String == "Sandbox")
        #expect(verified["warning"] == nil)
        let unverified = try Self.object(ReceiptJSON.document(for: receipt, verified: false))
        #expect(unverified["status"] == nil)
        #expect(unverified["verified"] as? Bool == false)
        #expect((unverified["warning"] as? String)?.contains("UNVERIFIED") == true)
    }

    @Test("errors render with their stable code")
    func errors() throws {
        let error = ReceiptError(.certificateExpired, "the leaf had expired", offset: 12, file: "receipt.der")
        let json = try Self.object(ReceiptJSON.error(error))
        let body = try #require(json["error"] as? [String: Any])
        #expect(body["code"] as? Int == 301)
        #expect(body["name"] as? String == "certificateExpired")
        #expect(body["message"] as? String == "the leaf had expired (at byte offset 12) in receipt.der")
        #expect(body["offset"] as? Int == 12)
        #expect(body["file"] as? String == "receipt.der")
    }

    @Test("strings are escaped")
    func escaping() throws {
        var receipt = Issuing.receipt(purchases: 0)
        receipt.bundleIdentifier = "a\"b\\c\nd\u{1}é"
        let json = try Self.object(ReceiptJSON.receiptObject(receipt))
        #expect(json["bundle_id"] as? String == "a\"b\\c\nd\u{1}é")
        #expect(ReceiptJSON.receiptObject(receipt).contains(#""a\"b\\c\nd\u0001é""#))
    }

    @Test("U+007F and non-ASCII text are written as they are, as in every other JSON OpenStoreKit writes")
    func deleteCharacter() throws {
        var receipt = Issuing.receipt(purchases: 0)
        receipt.bundleIdentifier = "com.example\u{7F}.caf\u{E9}"
        let text = ReceiptJSON.receiptObject(receipt, prettyPrinted: false)
        #expect(text.contains("\"bundle_id\":\"com.example\u{7F}.caf\u{E9}\""), "\(text)")
        #expect(try Self.object(text)["bundle_id"] as? String == receipt.bundleIdentifier)
    }
}
