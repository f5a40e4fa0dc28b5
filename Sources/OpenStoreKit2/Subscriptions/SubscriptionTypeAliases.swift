// The top-level names StoreKit gives its subscription types (iOS 18.4), so that code written with them compiles.

/// Information about an auto-renewable subscription: `Product.SubscriptionInfo` (iOS 18.4).
public typealias SubscriptionInfo = Product.SubscriptionInfo

/// The duration of time between subscription renewals: `Product.SubscriptionPeriod` (iOS 18.4).
public typealias SubscriptionPeriod = Product.SubscriptionPeriod

/// The renewal status information for an auto-renewable subscription: `Product.SubscriptionInfo.Status` (iOS 18.4).
public typealias SubscriptionStatus = Product.SubscriptionInfo.Status

/// The renewal information for an auto-renewable subscription: `Product.SubscriptionInfo.RenewalInfo` (iOS 18.4).
public typealias SubscriptionRenewalInfo = Product.SubscriptionInfo.RenewalInfo

/// The renewal states of auto-renewable subscriptions: `Product.SubscriptionInfo.RenewalState` (iOS 18.4).
public typealias SubscriptionRenewalState = Product.SubscriptionInfo.RenewalState
