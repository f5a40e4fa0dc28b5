public import Foundation
public import StoreModels

extension FeedStep {
    /// A transaction and a state, as `expect order` lists them.
    public struct HeardState: Sendable, Hashable {
        /// The transaction.
        public var reference: Reference
        /// The state the app heard.
        public var state: TransactionState

        /// Pairs a transaction with a state.
        public init(_ reference: Reference, _ state: TransactionState) {
            self.reference = reference
            self.state = state
        }
    }

    /// The value `expect receipt REF FIELD VALUE` compares a receipt field with.
    public enum ReceiptValue: Sendable, Hashable, CustomStringConvertible {
        /// `none`: the entry has no such field.
        case none
        /// A date field, compared to the millisecond.
        case date(Date)
        /// A transaction identifier field: the identifier of this transaction.
        case transaction(Reference)
        /// Any other field, compared as the receipt JSON writes it (`true`, `1`, an offer identifier).
        case text(String)

        /// The value as a feed writes it.
        public var description: String {
            switch self {
            case .none: "none"
            case .date(let date): ISO8601.format(date)
            case .transaction(let reference): reference.description
            case .text(let text): text
            }
        }
    }

    /// The fields of a receipt entry `expect receipt REF FIELD VALUE` reads: the names ReceiptKit's JSON gives them
    /// (Apple's `verifyReceipt` names).
    public enum ReceiptField {
        /// Fields holding a date (each has a `_ms` twin in milliseconds).
        public static let dates = ["purchase_date", "original_purchase_date", "expires_date", "cancellation_date"]
        /// Fields holding a transaction identifier.
        public static let transactions = ["transaction_id", "original_transaction_id"]
        /// Fields holding `true` or `false`.
        public static let flags = ["is_trial_period", "is_in_intro_offer_period"]
        /// Fields holding a whole number.
        public static let numbers = ["quantity", "web_order_line_item_id"] + dates.map { $0 + "_ms" }
        /// Fields holding text.
        public static let texts = ["product_id", "promotional_offer_id"]
        /// Every field.
        public static let all = dates + transactions + flags + numbers + texts
    }
}
