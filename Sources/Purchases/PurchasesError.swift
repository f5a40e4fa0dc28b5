public import OpenStoreKit

/// Why a purchase-module operation failed. Compare by ``code``; the message is for people.
public struct PurchasesError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable error code. The numbers are never reused.
    public struct Code: RawRepresentable, Sendable, Hashable {
        /// The stable number.
        public let rawValue: Int
        /// Creates a code from its number.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Another purchase is still running.
        public static let purchaseInProgress = Code(rawValue: 1)
        /// The product was not among the loaded products.
        public static let productNotFound = Code(rawValue: 2)
        /// The store failed the operation; ``PurchasesError/storeCode`` says how.
        public static let store = Code(rawValue: 3)
        /// A restore is still running.
        public static let restoreInProgress = Code(rawValue: 4)
        /// The products could not be loaded.
        public static let productsLoadingFailed = Code(rawValue: 5)
        /// The app's content delivery failed; the transaction stays unfinished and comes back.
        public static let deliveryFailed = Code(rawValue: 6)
        /// The receipt could not be read or verified, so entitlements are unknown.
        public static let receiptInvalid = Code(rawValue: 7)
        /// Something unexpected.
        public static let unknown = Code(rawValue: 99)
    }

    /// What kind of failure this is.
    public let code: Code
    /// The StoreKit error code, for store failures.
    public let storeCode: SKError.Code?
    /// What went wrong, for people.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, storeCode: SKError.Code? = nil, _ message: String) {
        self.code = code
        self.storeCode = storeCode
        self.message = message
    }

    /// A store failure from a transaction's or request's error.
    init(store error: (any Error)?, code: Code = .store) {
        let skError = error as? SKError
        self.init(code, storeCode: skError?.code ?? .unknown, skError?.message ?? "the store failed")
    }

    /// The code, the store code when present, and the message.
    public var description: String {
        "PurchasesError \(code.rawValue)" + (storeCode.map { " (SKError \($0.rawValue))" } ?? "") + ": \(message)"
    }

    /// Errors are equal when their codes and store codes are.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code && lhs.storeCode == rhs.storeCode }
    /// Hashes the codes.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(storeCode)
    }
}
