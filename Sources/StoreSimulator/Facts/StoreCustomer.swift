public import StoreModels

/// One customer of the store as it stood at one instant: the transaction a request named, the facts asked of its
/// account, and the payload mapping to sign them with, all read under one acquisition of the store's lock
/// (``SimulatedStore/customer(ofTransaction:including:)``).
///
/// A face that answers a request from many facts of one account (the App Store Server API's Get All Subscription
/// Statuses, Get Transaction History) reads them together here, so that its answer is one state of the store and costs
/// the store's lock once, and signs from it (``SimulatedStore/signedTransaction(_:in:)``,
/// ``SimulatedStore/signedRenewalInfo(originalTransactionID:in:)``) without reading the store again.
public struct StoreCustomer: Sendable {
    /// What to read besides the transaction.
    public struct Parts: OptionSet, Sendable, Hashable {
        /// The bits.
        public let rawValue: Int
        /// Creates parts from their bits.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Every record of the account (``StoreCustomer/records``).
        public static let history = Parts(rawValue: 1)
        /// The account's subscription statuses, with what their renewal info is signed from
        /// (``StoreCustomer/subscriptionStatuses``).
        public static let subscriptionStatuses = Parts(rawValue: 2)
    }

    /// The transaction the customer was found by.
    public let transaction: TransactionRecord
    /// Every record of the account, oldest first, with ``Parts/history``; empty otherwise.
    public let records: [TransactionRecord]
    /// The records the account's devices hold unfinished, with ``Parts/history`` (what Get Transaction History v1
    /// keeps of the consumables); empty otherwise.
    let unfinishedRecordIDs: Set<UInt64>
    /// Apple's status of each subscription the account has (``SimulatedStore/subscriptionStatuses(of:groupID:)``),
    /// with ``Parts/subscriptionStatuses``; empty otherwise.
    public let subscriptionStatuses: [StoreSubscriptionStatus]
    /// How the store's records become the payloads it signs, as the store stood.
    public let payloadMapping: SignedPayloadMapping
    /// What the renewal info of each of ``subscriptionStatuses`` is signed from, by the original transaction the
    /// status names.
    let renewals: [UInt64: StoreState.RenewalSource]
    /// The latest transaction of each of ``subscriptionStatuses``, by identifier.
    let latestTransactions: [UInt64: TransactionRecord]

    /// The account.
    public var account: String { transaction.account }

    /// The latest transaction a status of ``subscriptionStatuses`` names (``StoreSubscriptionStatus/transactionID``),
    /// as it stood.
    public func latestTransaction(of status: StoreSubscriptionStatus) -> TransactionRecord? {
        latestTransactions[status.transactionID]
    }

    /// The records a view of the account's purchase history lists, oldest first: what
    /// ``SimulatedStore/transactionHistory(of:view:)`` answers, from ``records`` (read with ``Parts/history``).
    public func transactionHistory(view: TransactionHistoryView) -> [TransactionRecord] {
        let view = view == .serverVersion1 ? .device(unfinished: unfinishedRecordIDs) : view
        return records.filter { StoreState.isListed($0, in: view) }
    }
}
