public import Foundation
import Synchronization

/// A payment whose fields can be set before it is added to the queue.
public final class SKMutablePayment: SKPayment, @unchecked Sendable {
    // @unchecked: the fields live behind the superclass's mutex.

    /// Creates an empty payment; set ``productIdentifier`` before adding it.
    public convenience init() {
        self.init(fields: Fields(productIdentifier: ""))
    }

    /// Creates a payment for one of a product.
    public convenience init(product: SKProduct) {
        self.init(fields: Fields(productIdentifier: product.productIdentifier))
    }

    /// The product identifier agreed upon with the store.
    public override var productIdentifier: String {
        get { fields.withLock { $0.productIdentifier } }
        set { fields.withLock { $0.productIdentifier = newValue } }
    }
    /// How many; must be 1 through 10 when the payment is added.
    public override var quantity: Int {
        get { fields.withLock { $0.quantity } }
        set { fields.withLock { $0.quantity = newValue } }
    }
    /// Reserved; a payment with request data is rejected.
    public override var requestData: Data? {
        get { fields.withLock { $0.requestData } }
        set { fields.withLock { $0.requestData = newValue } }
    }
    /// An opaque identifier of the user's account in your app.
    public override var applicationUsername: String? {
        get { fields.withLock { $0.applicationUsername } }
        set { fields.withLock { $0.applicationUsername = newValue } }
    }
    /// Whether the payment asks for Ask to Buy approval in testing.
    public override var simulatesAskToBuyInSandbox: Bool {
        get { fields.withLock { $0.simulatesAskToBuyInSandbox } }
        set { fields.withLock { $0.simulatesAskToBuyInSandbox = newValue } }
    }
    /// The promotional offer to apply.
    public override var paymentDiscount: SKPaymentDiscount? {
        get { fields.withLock { $0.paymentDiscount } }
        set { fields.withLock { $0.paymentDiscount = newValue } }
    }
}
