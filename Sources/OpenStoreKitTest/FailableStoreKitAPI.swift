import OpenStoreKit2

/// A StoreKit 2 API a test session can make fail (`SKTestSession.setSimulatedError(_:forAPI:)`), with the kind of
/// failure it reports. Name one with its static shorthand: `.loadProducts`, `.purchase`, `.verification`,
/// `.appStoreSync`, `.subscriptionStatus`, `.appTransaction`, `.manageSubscriptions`, `.refundRequest`,
/// `.offerCodeRedeem`.
public protocol FailableStoreKitAPI<Failure>: Sendable {
    /// The failures the API can report.
    associatedtype Failure: SKTestFailure
}

/// `Product.products(for:)`.
public struct StoreKitLoadProductsAPI: FailableStoreKitAPI {
    /// The failures it can report.
    public typealias Failure = SKTestFailures.LoadProducts
    /// Names the API.
    public init() {}
}

/// `Product.purchase(options:)`.
public struct StoreKitPurchaseAPI: FailableStoreKitAPI {
    /// The failures it can report.
    public typealias Failure = SKTestFailures.Purchase
    /// Names the API.
    public init() {}
}

/// Verification of signed values.
public struct StoreKitVerificationAPI: FailableStoreKitAPI {
    /// The failures it can report.
    public typealias Failure = SKTestFailures.Verification
    /// Names the API.
    public init() {}
}

/// `AppStore.sync()`.
public struct StoreKitAppStoreSyncAPI: FailableStoreKitAPI {
    /// The failures it can report.
    public typealias Failure = SKTestFailures.AppStoreSync
    /// Names the API.
    public init() {}
}

/// Subscription statuses.
public struct StoreKitSubscriptionStatusAPI: FailableStoreKitAPI {
    /// The failures it can report.
    public typealias Failure = SKTestFailures.SubscriptionStatus
    /// Names the API.
    public init() {}
}

/// `AppTransaction.shared`.
public struct StoreKitAppTransactionAPI: FailableStoreKitAPI {
    /// The failures it can report.
    public typealias Failure = SKTestFailures.AppTransaction
    /// Names the API.
    public init() {}
}

/// The manage-subscriptions sheet.
public struct StoreKitManageSubscriptionsAPI: FailableStoreKitAPI {
    /// The failures it can report.
    public typealias Failure = SKTestFailures.ManageSubscriptions
    /// Names the API.
    public init() {}
}

/// Refund requests.
public struct StoreKitRefundRequestAPI: FailableStoreKitAPI {
    /// The failures it can report.
    public typealias Failure = SKTestFailures.RefundRequest
    /// Names the API.
    public init() {}
}

/// The offer-code redemption sheet.
public struct StoreKitOfferCodeRedeemAPI: FailableStoreKitAPI {
    /// The failures it can report.
    public typealias Failure = SKTestFailures.OfferCodeRedeem
    /// Names the API.
    public init() {}
}

extension FailableStoreKitAPI where Self == StoreKitLoadProductsAPI {
    /// `Product.products(for:)`.
    public static var loadProducts: Self { Self() }
}

extension FailableStoreKitAPI where Self == StoreKitPurchaseAPI {
    /// `Product.purchase(options:)`.
    public static var purchase: Self { Self() }
}

extension FailableStoreKitAPI where Self == StoreKitVerificationAPI {
    /// Verification of signed values.
    public static var verification: Self { Self() }
}

extension FailableStoreKitAPI where Self == StoreKitAppStoreSyncAPI {
    /// `AppStore.sync()`.
    public static var appStoreSync: Self { Self() }
}

extension FailableStoreKitAPI where Self == StoreKitSubscriptionStatusAPI {
    /// Subscription statuses.
    public static var subscriptionStatus: Self { Self() }
}

extension FailableStoreKitAPI where Self == StoreKitAppTransactionAPI {
    /// `AppTransaction.shared`.
    public static var appTransaction: Self { Self() }
}

extension FailableStoreKitAPI where Self == StoreKitManageSubscriptionsAPI {
    /// The manage-subscriptions sheet.
    public static var manageSubscriptions: Self { Self() }
}

extension FailableStoreKitAPI where Self == StoreKitRefundRequestAPI {
    /// Refund requests.
    public static var refundRequest: Self { Self() }
}

extension FailableStoreKitAPI where Self == StoreKitOfferCodeRedeemAPI {
    /// The offer-code redemption sheet.
    public static var offerCodeRedeem: Self { Self() }
}
