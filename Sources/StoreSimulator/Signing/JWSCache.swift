import ReceiptKit

/// The JWS a store signed, by what they sign, with the payload each was signed from without its signing date, so
/// that a payload is signed again only after it changed.
struct JWSCache: Sendable {
    /// One signed payload.
    struct Entry<Payload: Sendable & Hashable>: Sendable {
        /// The payload without its signing date.
        var unsigned: Payload
        /// The honest JWS and the payload with its signing date.
        var signed: StoreSignedValue<Payload>
    }

    /// Signed transactions by transaction identifier.
    var transactions: [UInt64: Entry<JWSTransaction>] = [:]
    /// Signed renewal info by original transaction identifier.
    var renewals: [UInt64: Entry<JWSRenewalInfo>] = [:]
    /// Signed app transactions by account.
    var apps: [String: Entry<JWSAppTransaction>] = [:]
    /// How many signed transactions the cache may hold before it drops those of records the store no longer keeps.
    private var transactionLimit = Self.smallestTransactionLimit

    /// The fewest signed transactions the cache lets itself hold before it looks for dropped records.
    static let smallestTransactionLimit = 1_024

    /// Keeps a signed transaction; returns whether the cache grew past its limit, for the store to drop the entries of
    /// records it no longer keeps (``forget(transactions:)``).
    mutating func keep(_ entry: Entry<JWSTransaction>, forTransaction id: UInt64) -> Bool {
        transactions[id] = entry
        return transactions.count > transactionLimit
    }

    /// Drops the signed transactions of records the store no longer keeps, and lets the cache grow to twice what is
    /// left before it looks again, so that looking costs a constant amount per transaction signed.
    mutating func forget(transactions dropped: [UInt64]) {
        for id in dropped { transactions[id] = nil }
        transactionLimit = max(Self.smallestTransactionLimit, 2 * transactions.count)
    }
}
