import Foundation
import StoreModels

/// The binary form of a ``TransactionRecord`` in a state file's table of records (format 2, docs/durable-state.md):
/// the journal's encoding (``JournalWriter``) of every field in a fixed order. Fields are only ever added at the end.
///
/// `id`, `originalID` (u64), `account`, `productID` (strings), the product type (a byte: ``productTypes``), `quantity`
/// (i64), the state (a byte, its raw value), `purchaseDate`, `originalPurchaseDate` (dates), `expirationDate`,
/// `cancellationDate` (optional dates), `revocationReason` (optional byte), `webOrderLineItemID` (optional u64), a
/// byte of flags (``Flag``), `promotionalOfferID`, `applicationUsername` (optional strings), `failure` (optional:
/// code as i64, message), `deviceID` (optional string), `isRenewal` (optional bool, a byte 0 or 1; a row that ends
/// before it leaves it unknown), `sharedFromID` (optional u64; a row that ends before it is the account's own
/// purchase), `revocationPercentage` (optional i64, a prorated refund's share; a row that ends before it is not
/// refunded, or refunded in full), then, for a record with a billing plan only, the billing plan (a byte:
/// ``billingPlans``) and its commitment (optional: billing period number and total as i64, expiration date); a row
/// that ends before them has no billing plan. An optional is a presence byte (0 or 1) and the value.
enum RecordRow {
    /// The billing plans by their byte; never reordered.
    static let billingPlans: [BillingPlan.Kind] = [.upFront, .monthly]

    /// The product types by their byte; never reordered.
    static let productTypes: [ProductType] = [
        .consumable, .nonConsumable, .nonRenewingSubscription, .autoRenewableSubscription,
    ]

    /// The bits of the flags byte; never renumbered.
    private enum Flag: UInt8 {
        case trial = 1
        case introOffer = 2
        case autoRenew = 4
        case purchaseIssue = 8
        case askToBuy = 16
        case priceConsent = 32
        case upgraded = 64
    }

    /// The key of a record's row: its identifier in decimal, zero-padded to 20 digits so that keys sort by identifier.
    static func key(_ id: UInt64) -> String {
        let digits = String(id)
        return String(repeating: "0", count: max(0, 20 - digits.count)) + digits
    }

    /// Appends the row of `record`.
    static func encode(_ record: TransactionRecord, into writer: inout JournalWriter) {
        writer.uint64(record.id)
        writer.uint64(record.originalID)
        writer.string(record.account)
        writer.string(record.productID)
        writer.byte(UInt8(productTypes.firstIndex(of: record.productType)!))
        writer.int(record.quantity)
        writer.byte(UInt8(record.state.rawValue))
        writer.date(record.purchaseDate)
        writer.date(record.originalPurchaseDate)
        optional(record.expirationDate, into: &writer) { $1.date($0) }
        optional(record.cancellationDate, into: &writer) { $1.date($0) }
        optional(record.revocationReason, into: &writer) { $1.byte(UInt8($0.rawValue)) }
        optional(record.webOrderLineItemID, into: &writer) { $1.uint64($0) }
        var flags: UInt8 = 0
        for (flag, on) in [
            (Flag.trial, record.isTrialPeriod), (.introOffer, record.isInIntroOfferPeriod),
            (.autoRenew, record.autoRenewEnabled), (.purchaseIssue, record.hasPurchaseIssue),
            (.askToBuy, record.pendingAskToBuyConfirmation), (.priceConsent, record.isPendingPriceIncreaseConsent),
            (.upgraded, record.isUpgraded),
        ] where on {
            flags |= flag.rawValue
        }
        writer.byte(flags)
        writer.optionalString(record.promotionalOfferID)
        writer.optionalString(record.applicationUsername)
        optional(record.failure, into: &writer) { failure, writer in
            writer.int(failure.code.rawValue)
            writer.string(failure.message)
        }
        writer.optionalString(record.deviceID)
        optional(record.isRenewal, into: &writer) { $1.byte($0 ? 1 : 0) }
        // Rows of the account's own purchases end here, as before Family Sharing, unless refunded in part or billed
        // by a plan; each later field writes the ones before it, present or not.
        guard record.sharedFromID != nil || record.revocationPercentage != nil || record.billingPlan != nil else {
            return
        }
        optional(record.sharedFromID, into: &writer) { $1.uint64($0) }
        guard record.revocationPercentage != nil || record.billingPlan != nil else { return }
        optional(record.revocationPercentage, into: &writer) { $1.int($0) }
        guard let plan = record.billingPlan else { return }
        writer.byte(UInt8(billingPlans.firstIndex(of: plan)!))
        optional(record.commitment, into: &writer) { commitment, writer in
            writer.int(commitment.billingPeriodNumber)
            writer.int(commitment.totalBillingPeriods)
            writer.date(commitment.expirationDate)
        }
    }

    private static func optional<T>(
        _ value: T?, into writer: inout JournalWriter, _ body: (T, inout JournalWriter) -> Void
    ) {
        guard let value else { return writer.byte(0) }
        writer.byte(1)
        body(value, &writer)
    }

    /// Reads the row of a record.
    /// - Throws: ``JournalReader/Failure`` naming what is missing or malformed, and where.
    static func decode(_ reader: inout JournalReader, sharing cache: inout StringCache) throws(JournalReader.Failure)
        -> TransactionRecord
    {
        let id = try reader.uint64("the identifier")
        let originalID = try reader.uint64("the original identifier")
        let account = try reader.string("the account", sharing: &cache)
        let productID = try reader.string("the product", sharing: &cache)
        let typeStart = reader.offset
        let typeByte = Int(try reader.byte("the product type"))
        guard typeByte < productTypes.count else {
            throw JournalReader.Failure(offset: typeStart, message: "unknown product type \(typeByte)")
        }
        let quantity = try reader.int("the quantity")
        let stateStart = reader.offset
        let stateByte = try reader.byte("the state")
        guard let state = TransactionState(rawValue: Int(stateByte)) else {
            throw JournalReader.Failure(offset: stateStart, message: "unknown transaction state \(stateByte)")
        }
        var record = TransactionRecord(
            id: id, originalID: originalID, account: account, productID: productID,
            productType: productTypes[typeByte], quantity: quantity, state: state,
            purchaseDate: try reader.date("the purchase date"),
            originalPurchaseDate: try reader.date("the original purchase date"))
        if try reader.bool("the presence of the expiration date") {
            record.expirationDate = try reader.date("the expiration date")
        }
        if try reader.bool("the presence of the cancellation date") {
            record.cancellationDate = try reader.date("the cancellation date")
        }
        if try reader.bool("the presence of the revocation reason") {
            let start = reader.offset
            let raw = try reader.byte("the revocation reason")
            guard let reason = TransactionRecord.RevocationReason(rawValue: Int(raw)) else {
                throw JournalReader.Failure(offset: start, message: "unknown revocation reason \(raw)")
            }
            record.revocationReason = reason
        }
        if try reader.bool("the presence of the line item") {
            record.webOrderLineItemID = try reader.uint64("the line item")
        }
        let flagStart = reader.offset
        let flags = try reader.byte("the flags")
        guard flags < 128 else { throw JournalReader.Failure(offset: flagStart, message: "unknown flags \(flags)") }
        record.isTrialPeriod = flags & Flag.trial.rawValue != 0
        record.isInIntroOfferPeriod = flags & Flag.introOffer.rawValue != 0
        record.autoRenewEnabled = flags & Flag.autoRenew.rawValue != 0
        record.hasPurchaseIssue = flags & Flag.purchaseIssue.rawValue != 0
        record.pendingAskToBuyConfirmation = flags & Flag.askToBuy.rawValue != 0
        record.isPendingPriceIncreaseConsent = flags & Flag.priceConsent.rawValue != 0
        record.isUpgraded = flags & Flag.upgraded.rawValue != 0
        record.promotionalOfferID = try reader.optionalString("the promotional offer", sharing: &cache)
        record.applicationUsername = try reader.optionalString("the application username", sharing: &cache)
        if try reader.bool("the presence of the failure") {
            let start = reader.offset
            let raw = try reader.int("the failure's code")
            guard let code = StoreErrorCode(rawValue: raw) else {
                throw JournalReader.Failure(offset: start, message: "unknown store error code \(raw)")
            }
            record.failure = StoreFailure(code, try reader.string("the failure's message"))
        }
        record.deviceID = try reader.optionalString("the device", sharing: &cache)
        if !reader.isAtEnd, try reader.bool("the presence of the renewal flag") {
            record.isRenewal = try reader.bool("the renewal flag")
        }
        if !reader.isAtEnd, try reader.bool("the presence of the shared transaction") {
            record.sharedFromID = try reader.uint64("the shared transaction")
        }
        if !reader.isAtEnd, try reader.bool("the presence of the revocation percentage") {
            let start = reader.offset
            let percentage = try reader.int("the revocation percentage")
            guard TransactionRecord.revocationPercentageRange.contains(percentage) else {
                throw JournalReader.Failure(
                    offset: start, message: "the revocation percentage \(percentage) is outside 1...100000")
            }
            record.revocationPercentage = percentage
        }
        if !reader.isAtEnd {
            let planStart = reader.offset
            let planByte = Int(try reader.byte("the billing plan"))
            guard planByte < billingPlans.count else {
                throw JournalReader.Failure(offset: planStart, message: "unknown billing plan \(planByte)")
            }
            record.billingPlan = billingPlans[planByte]
            if try reader.bool("the presence of the commitment") {
                record.commitment = BillingCommitment(
                    billingPeriodNumber: try reader.int("the commitment's billing period"),
                    totalBillingPeriods: try reader.int("the commitment's billing periods"),
                    expirationDate: try reader.date("the commitment's expiration date"))
            }
        }
        guard reader.isAtEnd else {
            throw JournalReader.Failure(offset: reader.offset, message: "unexpected bytes after the record")
        }
        return record
    }
}
