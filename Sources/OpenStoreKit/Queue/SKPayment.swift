public import Foundation
import StoreModels
import Synchronization

/// A request to buy a product: what ``SKPaymentQueue/add(_:)-(SKPayment)`` takes.
///
/// Adding a payment copies it, so changing an ``SKMutablePayment`` afterwards does not change the queued request.
public class SKPayment: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
    // @unchecked: every field lives in `fields`, behind a mutex.
    struct Fields {
        var productIdentifier: String
        var quantity = 1
        var requestData: Data?
        var applicationUsername: String?
        var simulatesAskToBuyInSandbox = false
        var paymentDiscount: SKPaymentDiscount?
    }

    let fields: Mutex<Fields>

    init(fields: Fields) {
        self.fields = Mutex(fields)
    }

    /// Creates a payment for one of a product.
    public convenience init(product: SKProduct) {
        self.init(fields: Fields(productIdentifier: product.productIdentifier))
    }

    /// The product identifier agreed upon with the store.
    public var productIdentifier: String { fields.withLock { $0.productIdentifier } }
    /// How many; 1 by default, at most 10.
    public var quantity: Int { fields.withLock { $0.quantity } }
    /// Reserved; a payment with request data is rejected (`SKError.Code.unauthorizedRequestData`).
    public var requestData: Data? { fields.withLock { $0.requestData } }
    /// An opaque identifier of the user's account in your app (a UUID is recommended).
    public var applicationUsername: String? { fields.withLock { $0.applicationUsername } }
    /// Whether the payment asks for Ask to Buy approval in testing.
    public var simulatesAskToBuyInSandbox: Bool { fields.withLock { $0.simulatesAskToBuyInSandbox } }
    /// The promotional offer to apply.
    public var paymentDiscount: SKPaymentDiscount? { fields.withLock { $0.paymentDiscount } }

    /// An immutable copy.
    public func copy(with zone: NSZone? = nil) -> Any { SKPayment(fields: fields.withLock { $0 }) }

    /// A mutable copy.
    public func mutableCopy(with zone: NSZone? = nil) -> Any { SKMutablePayment(fields: fields.withLock { $0 }) }

    /// `<SKPayment: com.example.pro x1>`.
    public override var description: String { "<SKPayment: \(productIdentifier) x\(quantity)>" }

    var request: PaymentRequest {
        fields.withLock { fields in
            PaymentRequest(
                productID: fields.productIdentifier,
                quantity: fields.quantity,
                applicationUsername: fields.applicationUsername,
                simulatesAskToBuy: fields.simulatesAskToBuyInSandbox,
                discount: fields.paymentDiscount?.request,
                hasRequestData: fields.requestData != nil
            )
        }
    }

    convenience init(request: PaymentRequest) {
        self.init(
            fields: Fields(
                productIdentifier: request.productID,
                quantity: request.quantity,
                applicationUsername: request.applicationUsername,
                simulatesAskToBuyInSandbox: request.simulatesAskToBuy
            )
        )
    }
}
