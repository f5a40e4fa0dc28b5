public import Foundation

/// What a paywall or flow shows: products by identifier, screens, the web purchase URL and the buttons' actions, as
/// a paywall builder would configure it.
public struct PaywallConfiguration: Sendable, Hashable {
    /// One product slot of a paywall.
    public struct ProductSlot: Sendable, Hashable, ExpressibleByStringLiteral {
        /// The store's product identifier.
        public let id: String
        /// The product's own web purchase URL, if it differs from the paywall's.
        public let webPurchaseURL: URL?
        /// The offer the paywall shows for the product, if any.
        public let offerId: String?

        /// Creates a slot.
        public init(id: String, webPurchaseURL: URL? = nil, offerId: String? = nil) {
            self.id = id
            self.webPurchaseURL = webPurchaseURL
            self.offerId = offerId
        }

        /// A slot with only a product identifier.
        public init(stringLiteral value: String) { self.init(id: value) }
    }

    /// The paywall's identifier.
    public let paywallId: String
    /// The variation (A/B test arm) shown.
    public let variationId: String
    /// The placement the paywall is shown at.
    public let placementId: String
    /// The products, in the order the paywall lists them.
    public let products: [ProductSlot]
    /// The screens; a single-screen paywall shows the first.
    public let screens: [FlowScreen]
    /// The paywall's web purchase URL.
    public let webPurchaseURL: URL?
    /// The product the paywall selects by itself once products are loaded (the builder's default), if any.
    public let selectedProductId: String?
    /// Where web purchase pages open.
    public let webPresentation: WebPresentation

    /// Creates a configuration; without screens it has one screen, `main`, offering every product.
    public init(
        paywallId: String,
        variationId: String = "default",
        placementId: String? = nil,
        products: [ProductSlot],
        screens: [FlowScreen] = [],
        webPurchaseURL: URL? = nil,
        selectedProductId: String? = nil,
        webPresentation: WebPresentation = .externalBrowser
    ) {
        self.paywallId = paywallId
        self.variationId = variationId
        self.placementId = placementId ?? paywallId
        self.products = products
        self.screens = screens.isEmpty ? [FlowScreen(id: "main")] : screens
        self.webPurchaseURL = webPurchaseURL
        self.selectedProductId = selectedProductId
        self.webPresentation = webPresentation
    }

    /// The product identifiers, in order.
    public var productIds: [String] { products.map(\.id) }
}
