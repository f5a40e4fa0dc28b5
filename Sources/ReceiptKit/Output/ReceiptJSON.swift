import Foundation
import StoreModels

/// Renders receipts as JSON with the field names of Apple's `verifyReceipt` answer.
///
/// Values are strings as Apple writes them: dates as `2020-07-14 19:36:40 Etc/GMT` with a `_ms` twin in
/// milliseconds, numbers and flags as strings (`"1"`, `"false"`). Absent attributes are left out. Keys are sorted,
/// so the output is deterministic. The `_pst` twins of Apple's answer are not produced.
public enum ReceiptJSON {
    /// The receipt object alone, as Apple's `receipt` field: `bundle_id`, `application_version`,
    /// `original_application_version`, `receipt_creation_date` and `_ms`, `receipt_type`, `expiration_date` and `_ms`
    /// and `in_app`.
    ///
    /// - Parameters:
    ///   - receipt: The receipt.
    ///   - prettyPrinted: Whether to indent (two spaces) and break lines; true by default.
    /// - Returns: The JSON text.
    public static func receiptObject(_ receipt: AppReceipt, prettyPrinted: Bool = true) -> String {
        value(of: receipt).serialized(prettyPrinted: prettyPrinted)
    }

    /// A whole document: `{"environment": ..., "receipt": {...}, "status": 0, "verified": true}` for a verified
    /// receipt; for an unverified one `status` is absent, `verified` is false and `warning` says that nothing was
    /// checked.
    ///
    /// - Parameters:
    ///   - receipt: The receipt.
    ///   - verified: Whether the receipt was verified.
    ///   - prettyPrinted: Whether to indent and break lines; true by default.
    /// - Returns: The JSON text.
    public static func document(for receipt: AppReceipt, verified: Bool, prettyPrinted: Bool = true) -> String {
        var members: [String: JSONValue] = ["receipt": value(of: receipt), "verified": .bool(verified)]
        if let environment = receipt.environment { members["environment"] = .string(environment.rawValue) }
        if verified {
            members["status"] = .number(0)
        } else {
            members["warning"] = .string(
                "UNVERIFIED: the signature and certificates of this receipt were not checked; anyone can forge it")
        }
        return JSONValue.object(members).serialized(prettyPrinted: prettyPrinted)
    }

    /// An error as `{"error": {"code": 301, "message": "...", "name": "certificateExpired"}}`, plus `offset` and
    /// `file` when the error has them.
    ///
    /// - Parameters:
    ///   - error: The error.
    ///   - prettyPrinted: Whether to indent and break lines; true by default.
    /// - Returns: The JSON text.
    public static func error(_ error: ReceiptError, prettyPrinted: Bool = true) -> String {
        var members: [String: JSONValue] = [
            "code": .number(Double(error.code.rawValue)),
            "name": .string(error.code.name),
            "message": .string(error.message),
        ]
        if let offset = error.offset { members["offset"] = .number(Double(offset)) }
        if let file = error.file { members["file"] = .string(file) }
        return JSONValue.object(["error": .object(members)]).serialized(prettyPrinted: prettyPrinted)
    }

    static func value(of receipt: AppReceipt) -> JSONValue {
        var members: [String: JSONValue] = [
            "bundle_id": .string(receipt.bundleIdentifier),
            "application_version": .string(receipt.applicationVersion),
            "in_app": .array(receipt.inAppPurchases.map(value(of:))),
        ]
        addDate(&members, "receipt_creation_date", receipt.creationDate)
        if let receiptType = receipt.receiptType { members["receipt_type"] = .string(receiptType) }
        if let original = receipt.originalApplicationVersion {
            members["original_application_version"] = .string(original)
        }
        if let expiration = receipt.expirationDate { addDate(&members, "expiration_date", expiration) }
        return .object(members)
    }

    static func value(of purchase: InAppPurchaseReceipt) -> JSONValue {
        var members: [String: JSONValue] = [
            "quantity": .string(String(purchase.quantity)),
            "product_id": .string(purchase.productIdentifier),
            "transaction_id": .string(purchase.transactionIdentifier),
            "is_trial_period": .string(purchase.isTrialPeriod ? "true" : "false"),
            "is_in_intro_offer_period": .string(purchase.isInIntroOfferPeriod ? "true" : "false"),
        ]
        addDate(&members, "purchase_date", purchase.purchaseDate)
        if let original = purchase.originalTransactionIdentifier {
            members["original_transaction_id"] = .string(original)
        }
        if let date = purchase.originalPurchaseDate { addDate(&members, "original_purchase_date", date) }
        if let date = purchase.subscriptionExpirationDate { addDate(&members, "expires_date", date) }
        if let date = purchase.cancellationDate { addDate(&members, "cancellation_date", date) }
        if let identifier = purchase.webOrderLineItemIdentifier {
            members["web_order_line_item_id"] = .string(String(identifier))
        }
        if let offer = purchase.promotionalOfferIdentifier { members["promotional_offer_id"] = .string(offer) }
        return .object(members)
    }

    private static func addDate(_ members: inout [String: JSONValue], _ key: String, _ date: Date) {
        let milliseconds = date.receiptMilliseconds
        members[key] = .string(RFC3339.formatAppleJSON(milliseconds: milliseconds))
        members[key + "_ms"] = .string(String(milliseconds))
    }
}
