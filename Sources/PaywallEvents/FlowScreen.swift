/// One screen of a flow: its identifier, the products it offers and what its buttons do.
public struct FlowScreen: Sendable, Hashable {
    /// The screen's identifier, reported with `flow_screen_showed`.
    public let id: String
    /// The products the screen offers, by identifier; `nil` offers every product of the paywall.
    public let productIds: [String]?
    /// What each button does, by button identifier.
    public let buttons: [String: FlowAction]

    /// Creates a screen.
    public init(id: String, productIds: [String]? = nil, buttons: [String: FlowAction] = [:]) {
        self.id = id
        self.productIds = productIds
        self.buttons = buttons
    }

    /// Whether the screen offers a product.
    public func offers(_ productId: String) -> Bool { productIds?.contains(productId) ?? true }
}
