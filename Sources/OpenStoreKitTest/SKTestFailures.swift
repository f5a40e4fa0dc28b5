import Foundation
public import OpenStoreKit2

/// A failure a test session can make a StoreKit 2 API report (`SKTestSession.setSimulatedError(_:forAPI:)`).
public protocol SKTestFailure: Equatable, Sendable {}

/// The failures each StoreKit 2 API can be made to report, as StoreKit Test names them.
public enum SKTestFailures: Sendable {
    /// A failure of `Product.products(for:)`.
    public enum LoadProducts: SKTestFailure {
        /// The call throws this error.
        case generic(StoreKitError)
    }

    /// A failure of `Product.purchase(options:)`.
    public enum Purchase: SKTestFailure {
        /// The purchase throws this error.
        case generic(StoreKitError)
        /// The purchase throws this purchase error.
        case purchase(Product.PurchaseError)
    }

    /// A failure of verification: every signed value comes back `.unverified` with this error.
    public enum Verification: SKTestFailure {
        /// The verification error.
        case verification(VerificationResult<Any>.VerificationError)
    }

    /// A failure of `AppStore.sync()`.
    public enum AppStoreSync: SKTestFailure {
        /// The call throws this error.
        case generic(StoreKitError)
    }

    /// A failure of subscription statuses (`Product.SubscriptionInfo.status(for:)`).
    public enum SubscriptionStatus: SKTestFailure {
        /// The call throws this error.
        case generic(StoreKitError)
    }

    /// A failure of `AppTransaction.shared`.
    public enum AppTransaction: SKTestFailure {
        /// The call throws this error.
        case generic(StoreKitError)
    }

    /// A failure of the manage-subscriptions sheet (no sheet on Linux; kept so tests written for iOS compile).
    public enum ManageSubscriptions: SKTestFailure {
        /// The call throws this error.
        case generic(StoreKitError)
    }

    /// A failure of a refund request.
    public enum RefundRequest: SKTestFailure {
        /// The call throws this error.
        case generic(StoreKitError)
        /// The call throws this refund request error.
        case refundRequest(Transaction.RefundRequestError)
    }

    /// A failure of the offer-code redemption sheet (no sheet on Linux; kept so tests written for iOS compile).
    public enum OfferCodeRedeem: SKTestFailure {
        /// The call throws this error.
        case generic(StoreKitError)
    }
}

extension StoreKitError {
    /// A key that tells errors apart, for the failures' equality.
    var comparisonKey: String {
        switch self {
        case .networkError(let error): "networkError(\(error.code.rawValue))"
        case .systemError(let error): "systemError(\(String(reflecting: error)))"
        default: String(describing: self)
        }
    }
}

extension SKTestFailures.LoadProducts {
    /// Equal when they carry the same error.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.generic(let a), .generic(let b)): a.comparisonKey == b.comparisonKey
        }
    }
}

extension SKTestFailures.Purchase {
    /// Equal when they carry the same error.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.generic(let a), .generic(let b)): a.comparisonKey == b.comparisonKey
        case (.purchase(let a), .purchase(let b)): a == b
        default: false
        }
    }
}

extension SKTestFailures.AppStoreSync {
    /// Equal when they carry the same error.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.generic(let a), .generic(let b)): a.comparisonKey == b.comparisonKey
        }
    }
}

extension SKTestFailures.SubscriptionStatus {
    /// Equal when they carry the same error.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.generic(let a), .generic(let b)): a.comparisonKey == b.comparisonKey
        }
    }
}

extension SKTestFailures.AppTransaction {
    /// Equal when they carry the same error.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.generic(let a), .generic(let b)): a.comparisonKey == b.comparisonKey
        }
    }
}

extension SKTestFailures.ManageSubscriptions {
    /// Equal when they carry the same error.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.generic(let a), .generic(let b)): a.comparisonKey == b.comparisonKey
        }
    }
}

extension SKTestFailures.RefundRequest {
    /// Equal when they carry the same error.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.generic(let a), .generic(let b)): a.comparisonKey == b.comparisonKey
        case (.refundRequest(let a), .refundRequest(let b)): a == b
        default: false
        }
    }
}

extension SKTestFailures.OfferCodeRedeem {
    /// Equal when they carry the same error.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.generic(let a), .generic(let b)): a.comparisonKey == b.comparisonKey
        }
    }
}
