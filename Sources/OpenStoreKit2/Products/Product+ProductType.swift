import StoreModels

extension Product {
    /// The type of a product.
    public struct ProductType: RawRepresentable, Equatable, Hashable, Sendable {
        /// The type's name, as signed transactions spell it (`Consumable`, `Non-Consumable`,
        /// `Non-Renewing Subscription`, `Auto-Renewable Subscription`).
        public let rawValue: String

        /// Creates a type from its name.
        ///
        /// - Parameter rawValue: The name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Used up once bought; can be bought again.
        public static let consumable = ProductType(rawValue: "Consumable")
        /// Bought once, owned for good.
        public static let nonConsumable = ProductType(rawValue: "Non-Consumable")
        /// A subscription that does not renew by itself.
        public static let nonRenewable = ProductType(rawValue: "Non-Renewing Subscription")
        /// A subscription that renews until cancelled.
        public static let autoRenewable = ProductType(rawValue: "Auto-Renewable Subscription")

        /// The type's name for people, in English: `Consumable`, `Non-Consumable`, `Non-Renewing Subscription` or
        /// `Auto-Renewable Subscription`, as App Store Connect names them.
        public var localizedDescription: String {
            switch self {
            case .consumable: "Consumable"
            case .nonConsumable: "Non-Consumable"
            case .nonRenewable: "Non-Renewing Subscription"
            case .autoRenewable: "Auto-Renewable Subscription"
            default: rawValue
            }
        }

        init(_ type: StoreModels.ProductType) {
            switch type {
            case .consumable: self = .consumable
            case .nonConsumable: self = .nonConsumable
            case .nonRenewingSubscription: self = .nonRenewable
            case .autoRenewableSubscription: self = .autoRenewable
            }
        }
    }
}
