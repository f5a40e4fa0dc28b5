public import Foundation

/// A request to extend the renewal date of every active subscription to a product, and what it did: the App Store
/// Server API's Extend Subscription Renewal Dates for All Active Subscribers, whose status Get Status of Subscription
/// Renewal Date Extensions reads (``SimulatedStore/extendRenewalDates(productID:by:requestIdentifier:storefrontCountryCodes:)``).
///
/// The store does the whole request at once, so it is complete when made. A durable store keeps it in its state file.
public struct MassRenewalExtension: Codable, Sendable, Hashable {
    /// A subscription the request could not extend: in a billing grace period or billing retry, or past the latest
    /// renewal date the store's clock can show.
    public struct Failure: Sendable, Hashable {
        /// The subscription's original transaction.
        public let originalID: UInt64
        /// The subscription's latest transaction.
        public let transactionID: UInt64
        /// Apple's status of the subscription.
        public let status: StoreSubscriptionStatus.Code

        /// Creates a failure.
        public init(originalID: UInt64, transactionID: UInt64, status: StoreSubscriptionStatus.Code) {
            self.originalID = originalID
            self.transactionID = transactionID
            self.status = status
        }
    }

    /// What a call of ``SimulatedStore/extendRenewalDates(productID:by:requestIdentifier:storefrontCountryCodes:)``
    /// did.
    public struct Outcome: Sendable, Hashable {
        /// The request, as the store keeps it.
        public let request: MassRenewalExtension
        /// Whether this call made it: `false` when the product and request identifier were used before, and nothing
        /// was done.
        public let isNew: Bool
        /// The subscriptions this call could not extend, in the order it tried them; empty when it was not new.
        public let failures: [Failure]

        /// Creates an outcome.
        public init(request: MassRenewalExtension, isNew: Bool, failures: [Failure]) {
            self.request = request
            self.isNew = isNew
            self.failures = failures
        }
    }

    /// The product whose subscriptions were extended.
    public var productID: String
    /// The identifier the request was made with, unique for the product.
    public var requestIdentifier: String
    /// How much later each renewal date was moved, in seconds.
    public var interval: TimeInterval
    /// The storefronts the request was limited to (`storefrontCountryCodes`), or `nil` for all.
    public var storefrontCountryCodes: [String]?
    /// When the store completed it: when it was made.
    public var completeDate: Date
    /// How many subscriptions were extended.
    public var succeededCount: Int
    /// How many subscriptions could not be extended.
    public var failedCount: Int

    /// Creates a request's record.
    public init(
        productID: String, requestIdentifier: String, interval: TimeInterval, storefrontCountryCodes: [String]?,
        completeDate: Date, succeededCount: Int, failedCount: Int
    ) {
        self.productID = productID
        self.requestIdentifier = requestIdentifier
        self.interval = interval
        self.storefrontCountryCodes = storefrontCountryCodes
        self.completeDate = completeDate
        self.succeededCount = succeededCount
        self.failedCount = failedCount
    }

    /// The key a store files a request under: the product and the request identifier.
    static func key(productID: String, requestIdentifier: String) -> String { productID + "\n" + requestIdentifier }

    /// ``key(productID:requestIdentifier:)`` of this request.
    var key: String { Self.key(productID: productID, requestIdentifier: requestIdentifier) }
}
