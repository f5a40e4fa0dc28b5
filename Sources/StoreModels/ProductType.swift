/// The kind of an in-app purchase, as App Store Connect and `.storekit` files define it.
public enum ProductType: String, Sendable, Hashable, Codable, CaseIterable {
    /// Bought, used up, and bought again; never restored.
    case consumable = "Consumable"
    /// Bought once and owned for good; restorable.
    case nonConsumable = "NonConsumable"
    /// Access for a fixed time that does not renew by itself; never restored.
    case nonRenewingSubscription = "NonRenewingSubscription"
    /// A subscription that renews at the end of each period until cancelled; restorable.
    case autoRenewableSubscription = "RecurringSubscription"

    /// Whether a restore brings transactions of this type back.
    public var isRestorable: Bool {
        self == .nonConsumable || self == .autoRenewableSubscription
    }

    /// The product type number App Store receipts use (attribute 1707).
    public var receiptProductType: Int {
        switch self {
        case .nonConsumable: 0
        case .consumable: 1
        case .nonRenewingSubscription: 2
        case .autoRenewableSubscription: 3
        }
    }
}
