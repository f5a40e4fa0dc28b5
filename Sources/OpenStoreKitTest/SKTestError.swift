public import Foundation
import StoreSimulator

// swift-format-ignore: AlwaysUseLowerCamelCase
/// The error domain of StoreKit Test errors: `"SKTestErrorDomain"`.
public let SKTestErrorDomain = "SKTestErrorDomain"

/// An error from a test session: a configuration file that cannot be found or read, an unknown product or transaction,
/// an action the store cannot take.
///
/// As on Apple platforms, match codes with `(error as? SKTestError)?.code == .fileNotFound`, with
/// `catch SKTestError.fileNotFound`, or through `NSError` (`domain == SKTestErrorDomain`, `code == 4`). Errors are equal
/// when their codes are; ``message`` is for people and may change.
public struct SKTestError: Error, CustomNSError, Hashable, Sendable, CustomStringConvertible {
    /// StoreKit Test's error codes, with Apple's raw values.
    public enum Code: Int, Sendable, Hashable, CaseIterable {
        /// The test environment cannot serve the request, such as a configuration file it cannot read.
        case serviceUnavailable = 0
        /// No product has the identifier.
        case invalidProductIdentifier = 1
        /// The product is of a type the action does not apply to.
        case invalidProductType = 2
        /// The URL is not a file URL.
        case invalidURL = 3
        /// The configuration file does not exist.
        case fileNotFound = 4
        /// The account has no subscription to the product.
        case noSubscriptionFound = 5
        /// No transaction has the identifier.
        case noTransactionFound = 6
        /// The transaction is not in a state that allows the action.
        case invalidAction = 7

        /// Matches an error against a code, for `catch SKTestError.fileNotFound`.
        public static func ~= (code: Code, error: any Error) -> Bool {
            (error as? SKTestError)?.code == code
        }
    }

    /// The error code.
    public let code: Code
    /// What went wrong and what to do, for people; not stable.
    public let message: String

    /// Creates an error with a code and, optionally, a description under `NSLocalizedDescriptionKey`.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        self.message =
            userInfo[NSLocalizedDescriptionKey] as? String ?? "StoreKit Test error \(code.rawValue) (\(code))"
    }

    init(_ code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// The test error for a store error.
    init(_ error: StoreSimulatorError) {
        let code: Code =
            switch error.code {
            case .fileNotFound: .fileNotFound
            case .unknownProduct: .invalidProductIdentifier
            case .unknownTransaction: .noTransactionFound
            case .invalidProductType: .invalidProductType
            case .noSubscription: .noSubscriptionFound
            case .invalidAction, .dateOutOfRange, .tooManyRenewals: .invalidAction
            default: .serviceUnavailable
            }
        self.init(code, message: error.detail)
    }

    /// `"SKTestErrorDomain"`.
    public static var errorDomain: String { SKTestErrorDomain }
    /// The code's raw value.
    public var errorCode: Int { code.rawValue }
    /// The description under `NSLocalizedDescriptionKey`.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }
    /// `SKTestErrorDomain code 4 (fileNotFound): …`.
    public var description: String { "\(SKTestErrorDomain) code \(code.rawValue) (\(code)): \(message)" }

    /// Errors are equal when their codes are.
    public static func == (lhs: SKTestError, rhs: SKTestError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// ``Code-swift.enum/serviceUnavailable``.
    public static var serviceUnavailable: Code { .serviceUnavailable }
    /// ``Code-swift.enum/invalidProductIdentifier``.
    public static var invalidProductIdentifier: Code { .invalidProductIdentifier }
    /// ``Code-swift.enum/invalidProductType``.
    public static var invalidProductType: Code { .invalidProductType }
    /// ``Code-swift.enum/invalidURL``.
    public static var invalidURL: Code { .invalidURL }
    /// ``Code-swift.enum/fileNotFound``.
    public static var fileNotFound: Code { .fileNotFound }
    /// ``Code-swift.enum/noSubscriptionFound``.
    public static var noSubscriptionFound: Code { .noSubscriptionFound }
    /// ``Code-swift.enum/noTransactionFound``.
    public static var noTransactionFound: Code { .noTransactionFound }
    /// ``Code-swift.enum/invalidAction``.
    public static var invalidAction: Code { .invalidAction }
}
