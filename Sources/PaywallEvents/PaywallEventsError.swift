public import Purchases
import StoreModels

/// Why a paywall, flow, web-paywall or onboarding operation failed. Compare by ``code``; the message is for people.
///
/// Its JSON form, as delegate payloads and event logs print it, is
/// `{"code": "purchase_failed", "message": "...", "details": {"underlyingError": "..."}}` (``jsonString``).
public struct PaywallEventsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable error code. The numbers are never reused; ``name`` is the code's JSON spelling.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The stable number.
        public let rawValue: Int
        /// Creates a code from its number.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// A purchase started from a paywall failed: a store error, a verification failure or a system error.
        public static let purchaseFailed = Code(rawValue: 1)
        /// A restore started from a paywall failed.
        public static let restoreFailed = Code(rawValue: 2)
        /// The paywall's products could not be loaded.
        public static let productsLoadingFailed = Code(rawValue: 3)
        /// The paywall could not be rendered.
        public static let renderingFailed = Code(rawValue: 4)
        /// Navigation to a web payment failed; the underlying error says why.
        public static let webPaymentFailed = Code(rawValue: 5)
        /// The paywall has no web purchase URL.
        public static let paywallWithoutPurchaseUrl = Code(rawValue: 6)
        /// Neither the product nor its paywall has a web purchase URL.
        public static let productWithoutPurchaseUrl = Code(rawValue: 7)
        /// The browser could not open the web paywall URL.
        public static let failedOpeningWebPaywallUrl = Code(rawValue: 8)
        /// The parameters could not be encoded into the web purchase URL.
        public static let failedDecodingWebPaywallUrl = Code(rawValue: 9)
        /// A harness action the presented screen cannot take now (nothing on screen, a product not loaded, no next
        /// screen, an operation already running).
        public static let invalidAction = Code(rawValue: 10)
        /// An onboarding event payload that cannot be decoded.
        public static let invalidEvent = Code(rawValue: 11)
        /// A runtime error raised by a flow's script.
        public static let scriptError = Code(rawValue: 4105)

        /// The JSON spelling: `purchase_failed`, `web_payment_failed`, `restore_failed`, `products_loading_failed`,
        /// `rendering_failed`, ...; `error_<number>` for a code this version does not know.
        public var name: String {
            switch self {
            case .purchaseFailed: "purchase_failed"
            case .restoreFailed: "restore_failed"
            case .productsLoadingFailed: "products_loading_failed"
            case .renderingFailed: "rendering_failed"
            case .webPaymentFailed: "web_payment_failed"
            case .paywallWithoutPurchaseUrl: "paywall_without_purchase_url"
            case .productWithoutPurchaseUrl: "product_without_purchase_url"
            case .failedOpeningWebPaywallUrl: "failed_opening_web_paywall_url"
            case .failedDecodingWebPaywallUrl: "failed_decoding_web_paywall_url"
            case .invalidAction: "invalid_action"
            case .invalidEvent: "invalid_event"
            case .scriptError: "script_error"
            default: "error_\(rawValue)"
            }
        }

        /// Every code this version knows.
        public static let all: [Code] = [
            .purchaseFailed, .restoreFailed, .productsLoadingFailed, .renderingFailed, .webPaymentFailed,
            .paywallWithoutPurchaseUrl, .productWithoutPurchaseUrl, .failedOpeningWebPaywallUrl,
            .failedDecodingWebPaywallUrl, .invalidAction, .invalidEvent, .scriptError,
        ]

        /// The code with a JSON name, or with a number written as text (`"4105"`).
        public init?(name: String) {
            if let known = Self.all.first(where: { $0.name == name }) {
                self = known
            } else if let number = Int(name) {
                self.init(rawValue: number)
            } else {
                return nil
            }
        }

        /// The JSON name.
        public var description: String { name }
    }

    /// What kind of failure this is.
    public let code: Code
    /// What went wrong, for people.
    public let message: String
    /// The purchase-module error behind a purchase, restore or loading failure.
    public let purchasesError: PurchasesError?
    /// More about the failure; `underlyingError` describes the error behind this one.
    public let details: [String: String]

    /// Creates an error.
    public init(_ code: Code, _ message: String, details: [String: String] = [:]) {
        self.code = code
        self.message = message
        self.purchasesError = nil
        self.details = details
    }

    /// Creates an error caused by a purchase-module error, which `details["underlyingError"]` describes.
    public init(_ code: Code, _ message: String, underlying: PurchasesError) {
        self.code = code
        self.message = message
        self.purchasesError = underlying
        self.details = ["underlyingError": underlying.description]
    }

    /// Creates an error caused by another of this module's errors, which `details["underlyingError"]` describes.
    public init(_ code: Code, _ message: String, underlying: PaywallEventsError) {
        self.code = code
        self.message = message
        self.purchasesError = underlying.purchasesError
        self.details = ["underlyingError": underlying.description]
    }

    /// `PaywallEventsError 1 (purchase_failed): message`.
    public var description: String { "PaywallEventsError \(code.rawValue) (\(code.name)): \(message)" }

    /// The JSON form: `{"code": NAME, "message": TEXT, "details": {...}}`, details' keys sorted.
    public var jsonString: String { jsonObject.jsonString }

    var jsonObject: JSONObjectWriter {
        var object = JSONObjectWriter()
        object.add("code", .string(code.name))
        object.add("message", .string(message))
        object.add("details", .object(details.mapValues(JSONValue.string)))
        return object
    }

    /// Errors are equal when their codes are.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    /// Hashes the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
