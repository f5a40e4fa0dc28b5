public import Foundation

/// An error of the StoreKit 2 API that is not about one purchase: a system failure, a network failure, a product
/// not sold in the storefront, a user who cancelled.
///
/// Values come from the store (a simulated failure, `SKTestSession`'s `setSimulatedError(_:forAPI:)`, or a store
/// operation that failed), as on iOS.
public enum StoreKitError: Error, Sendable, LocalizedError {
    /// An unknown error.
    case unknown
    /// The user cancelled.
    case userCancelled
    /// The network failed.
    case networkError(URLError)
    /// A system error.
    case systemError(any Error)
    /// The product is not available in the current storefront.
    case notAvailableInStorefront
    /// The app is not entitled to the API.
    case notEntitled
    /// The API is not supported here.
    case unsupported

    /// A description for people.
    public var errorDescription: String? {
        switch self {
        case .unknown: "An unknown error occurred."
        case .userCancelled: "The user cancelled."
        case .networkError(let error): "The network failed: \(error.localizedDescription)"
        case .systemError(let error): "A system error occurred: \(error)"
        case .notAvailableInStorefront: "The product is not available in the current storefront."
        case .notEntitled: "The app is not entitled to use this API."
        case .unsupported: "This API is not supported."
        }
    }
}
